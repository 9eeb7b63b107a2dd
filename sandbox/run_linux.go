// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// bwrapInstallHint is appended when bwrap is missing.
const bwrapInstallHint = "install it with `apt-get install bubblewrap` (Debian, Ubuntu), `dnf install bubblewrap` (Fedora) or `pacman -S bubblewrap` (Arch)"

// probeTimeout bounds each bwrap run of Detect; a hung probe (NFS, autofs)
// must not hang the session.
const probeTimeout = 2 * time.Second

// Detect finds bwrap (on $PATH, else /usr/bin/bwrap), reads its version
// and really builds a throwaway sandbox with the namespaces [Command]
// uses, so that blocked user namespaces (Ubuntu's AppArmor restriction,
// containers, a zero max_user_namespaces) are found now rather than on
// the first command.
func Detect() (Backend, error) {
	b, err := Find()
	if err != nil {
		return Backend{}, err
	}
	p := b.Path

	out, err := runProbe(p, "--version")
	if err != nil {
		return Backend{}, fmt.Errorf("bwrap --version (%s): %w", p, err)
	}
	// "bubblewrap 0.8.0"
	fields := strings.Fields(out)
	if len(fields) == 0 {
		return Backend{}, fmt.Errorf("bwrap --version (%s): no version in output", p)
	}
	b.Version = fields[len(fields)-1]

	trueBin, err := exec.LookPath("true")
	if err != nil {
		trueBin = "/bin/true"
	}
	args := append([]string{}, bwrapNamespaceArgs...)
	args = append(args, "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--", trueBin)
	if _, err := runProbe(p, args...); err != nil {
		return Backend{}, fmt.Errorf("bwrap cannot create a sandbox here: %w%s", err, userNSHint(err))
	}
	return b, nil
}

// Find locates bwrap without running it: $LITE_SANDBOX_BWRAP when set,
// else bwrap on $PATH, else /usr/bin/bwrap. It is what every command
// pays, so it only looks; a bwrap that cannot build a sandbox still
// fails closed when it runs (it exits non-zero before the command starts).
// [Detect] is the thorough check, for doctor and session start.
func Find() (Backend, error) {
	p := os.Getenv(EnvBwrap)
	if p == "" {
		var err error
		if p, err = exec.LookPath("bwrap"); err != nil {
			p = "/usr/bin/bwrap"
		}
	}
	if fi, err := os.Stat(p); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		return Backend{}, fmt.Errorf("bwrap not found (%s): %s", p, bwrapInstallHint)
	}
	return Backend{Name: "bwrap", Path: p}, nil
}

// runProbe runs bwrap with a timeout and returns its stdout, or an error
// carrying its stderr.
func runProbe(path string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	err := cmd.Run()
	if ctx.Err() != nil {
		return "", fmt.Errorf("timed out after %v", probeTimeout)
	}
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", errors.New(msg)
		}
		return "", err
	}
	return stdout.String(), nil
}

// userNSHint explains the usual causes of a failing probe.
func userNSHint(err error) string {
	msg := err.Error()
	for _, s := range []string{"namespace", "uid map", "Operation not permitted", "Permission denied"} {
		if strings.Contains(msg, s) {
			return " (user namespaces are probably blocked: check `lite-sandbox doctor`; on Ubuntu 24.04 and later kernel.apparmor_restrict_unprivileged_userns=1 needs an AppArmor profile for bwrap; in a container, run it with user namespaces allowed)"
		}
	}
	return ""
}

// Command returns the bwrap command line that runs argv in the sandbox
// described by s: path is bwrap's absolute path, args[0] is the same path
// and the rest is [BwrapArgs] over [Layout] of the host filesystem. It
// fails with a [*SetupError] when the sandbox cannot be built, including
// a working directory outside the workspace and every grant.
func Command(b Backend, s Spec, argv []string) (string, []string, error) {
	if b.Path == "" {
		return "", nil, &SetupError{Op: "backend", Err: errors.New("no bwrap path (call Detect first)")}
	}
	if err := checkCommand(s, argv); err != nil {
		return "", nil, err
	}
	mounts, err := Layout(s, OSFS{})
	if err != nil {
		return "", nil, &SetupError{Op: "layout", Err: err}
	}
	args := append([]string{b.Path}, BwrapArgs(mounts, s, argv)...)
	return b.Path, args, nil
}
