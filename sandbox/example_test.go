// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox_test

import (
	"fmt"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// BwrapArgs renders mounts (normally from sandbox.Layout over the host
// filesystem) into a bwrap command line.
func ExampleBwrapArgs() {
	s := sandbox.Spec{
		Workspace: "/home/user/project",
		Network:   policy.NetworkOff,
		Cwd:       "/home/user/project",
	}
	mounts := []sandbox.Mount{
		{Kind: sandbox.ROBind, Src: "/usr", Dst: "/usr"},
		{Kind: sandbox.Symlink, Src: "usr/bin", Dst: "/bin"},
		{Kind: sandbox.ROBind, Src: "/etc/passwd", Dst: "/etc/passwd"},
		{Kind: sandbox.Proc, Dst: "/proc"},
		{Kind: sandbox.Dev, Dst: "/dev"},
		{Kind: sandbox.Tmpfs, Dst: "/tmp"},
		{Kind: sandbox.Bind, Src: s.Workspace, Dst: s.Workspace},
		{Kind: sandbox.MaskDir, Dst: "/home/user/project/.secrets"},
		{Kind: sandbox.RemountRO, Dst: "/"},
	}
	args := sandbox.BwrapArgs(mounts, s, []string{"/bin/sh", "-c", "make test"})
	// One option with its operands per line; the command after "--".
	var line []string
	for i, a := range args {
		if a == "--" {
			fmt.Println(strings.Join(line, " "))
			fmt.Printf("-- %q\n", args[i+1:])
			break
		}
		if strings.HasPrefix(a, "--") && len(line) > 0 {
			fmt.Println(strings.Join(line, " "))
			line = line[:0]
		}
		line = append(line, a)
	}
	// Output:
	// --unshare-pid
	// --unshare-ipc
	// --unshare-uts
	// --unshare-cgroup-try
	// --new-session
	// --die-with-parent
	// --cap-drop ALL
	// --unshare-net
	// --ro-bind /usr /usr
	// --symlink usr/bin /bin
	// --ro-bind /etc/passwd /etc/passwd
	// --proc /proc
	// --remount-ro /proc
	// --dev /dev
	// --tmpfs /tmp
	// --bind /home/user/project /home/user/project
	// --tmpfs /home/user/project/.secrets
	// --remount-ro /home/user/project/.secrets
	// --remount-ro /
	// --chdir /home/user/project
	// -- ["/bin/sh" "-c" "make test"]
}
