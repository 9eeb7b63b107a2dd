// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package probe

import (
	"errors"
	"os"
	"strings"
	"syscall"
)

// containerMarkers are the files container runtimes leave at the root.
var containerMarkers = []string{"/.dockerenv", "/run/.containerenv"}

// ReadContainer looks for the signs of a container and tries to create
// a user namespace, for doctor (docs/container.md). It changes nothing.
func ReadContainer() Container {
	var c Container
	for _, m := range containerMarkers {
		if _, err := os.Stat(m); err == nil {
			c.Signs = append(c.Signs, m)
		}
	}
	if v := os.Getenv("container"); v != "" {
		c.Signs = append(c.Signs, "container="+v)
	}
	if os.Getenv("KUBERNETES_SERVICE_HOST") != "" {
		c.Signs = append(c.Signs, "KUBERNETES_SERVICE_HOST")
	}
	// The initial user namespace maps every uid; a rootless runtime's
	// (and the simulated container's) maps a few.
	if b, err := os.ReadFile("/proc/self/uid_map"); err == nil && !strings.Contains(string(b), "4294967295") {
		c.Signs = append(c.Signs, "a user namespace of its own")
	}
	c.UserNS = userNSBlocked()
	return c
}

// userNSBlocked starts a child in a new user namespace that at once
// fails to execute "/": EACCES from the exec means the namespace was
// made; another error is the clone's (EPERM from a seccomp profile or a
// missing capability, ENOSPC from user.max_user_namespaces=0), which it
// returns. Go's fork gives the clone's error and the exec's alike.
func userNSBlocked() string {
	p, err := os.StartProcess("/", []string{"/"}, &os.ProcAttr{Sys: &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER}})
	if err == nil {
		// Cannot happen ("/" is no program); reap it all the same.
		p.Kill()
		p.Wait()
		return ""
	}
	var errno syscall.Errno
	if !errors.As(err, &errno) || errno == syscall.EACCES {
		return ""
	}
	return "clone(CLONE_NEWUSER): " + errno.Error()
}
