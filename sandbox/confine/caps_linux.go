// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package confine

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// dropCapabilities empties the calling thread's capabilities (the
// ambient set, the bounding set where CAP_SETPCAP allows it, then the
// effective, permitted and inheritable sets), so that what it executes
// next holds none, as under bwrap's --cap-drop ALL. The Landlock backend
// (#28) needs it: with CAP_SYS_PTRACE, Landlock's ptrace rule lets root
// read a host process's /proc/<pid>/environ, maps and descriptors
// (escape classes 7, 22; measured on Linux 6.18, Landlock ABI 7), and
// root's other capabilities are no business of a command. Root without
// CAP_SETPCAP (some containers) keeps its bounding set, so an executed
// program regains those capabilities: the container's own limit.
func dropCapabilities() error {
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("confine: clearing ambient capabilities: %w", err)
	}
	for c := 0; ; c++ {
		err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
		if errors.Is(err, unix.EINVAL) {
			break // past the kernel's last capability
		}
		if errors.Is(err, unix.EPERM) {
			break // no CAP_SETPCAP: the bounding set stays (see above)
		}
		if err != nil {
			return fmt.Errorf("confine: dropping capability %d from the bounding set: %w", c, err)
		}
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("confine: capset: %w", err)
	}
	return nil
}
