// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"slices"
	"testing"
)

// TestKernelMounts: every bind that shows /proc or /sys shows them
// read-only (escape class 52), whatever path it takes there; the real
// sandbox's check is TestKernelFilesReadOnly.
func TestKernelMounts(t *testing.T) {
	t.Parallel()
	fsys := newFakeFS(map[string]string{
		"/proc/sys/kernel": "dir",
		"/sys/fs/cgroup":   "dir",
		"/home/u/root":     "link:/",
		"/home/u/cg":       "link:/sys/fs/cgroup",
		"/home/u/ws":       "dir",
	})
	for _, c := range []struct {
		name string
		in   []Mount
		want []Mount
	}{
		{"plain bind unchanged",
			[]Mount{{Kind: Bind, Src: "/home/u/ws", Dst: "/home/u/ws"}},
			[]Mount{{Kind: Bind, Src: "/home/u/ws", Dst: "/home/u/ws"}}},
		{"write grant in /sys",
			[]Mount{{Kind: Bind, Src: "/sys/fs/cgroup", Dst: "/sys/fs/cgroup"}},
			[]Mount{{Kind: ROBind, Src: "/sys/fs/cgroup", Dst: "/sys/fs/cgroup"}}},
		{"write grant in /proc",
			[]Mount{{Kind: Bind, Src: "/proc/sys/kernel", Dst: "/proc/sys/kernel"}},
			[]Mount{{Kind: ROBind, Src: "/proc/sys/kernel", Dst: "/proc/sys/kernel"}}},
		{"dev-bind of /sys",
			[]Mount{{Kind: DevBind, Src: "/sys", Dst: "/sys"}},
			[]Mount{{Kind: ROBind, Src: "/sys", Dst: "/sys"}}},
		{"link into /sys",
			[]Mount{{Kind: Bind, Src: "/home/u/cg", Dst: "/home/u/cg"}},
			[]Mount{{Kind: ROBind, Src: "/home/u/cg", Dst: "/home/u/cg"}}},
		{"workspace /",
			[]Mount{{Kind: Bind, Src: "/", Dst: "/"}},
			[]Mount{{Kind: Bind, Src: "/", Dst: "/"}, {Kind: Proc, Dst: "/proc"}, {Kind: ROBind, Src: "/sys", Dst: "/sys"}}},
		{"workspace / with its fresh /proc already",
			[]Mount{{Kind: Bind, Src: "/", Dst: "/"}, {Kind: Proc, Dst: "/proc"}},
			[]Mount{{Kind: Bind, Src: "/", Dst: "/"}, {Kind: Proc, Dst: "/proc"}, {Kind: ROBind, Src: "/sys", Dst: "/sys"}}},
		{"read grant of /",
			[]Mount{{Kind: ROBind, Src: "/", Dst: "/"}},
			[]Mount{{Kind: ROBind, Src: "/", Dst: "/"}, {Kind: Proc, Dst: "/proc"}}},
		{"link to / bound elsewhere",
			[]Mount{{Kind: Bind, Src: "/home/u/root", Dst: "/home/u/root"}},
			[]Mount{{Kind: Bind, Src: "/home/u/root", Dst: "/home/u/root"}, {Kind: Proc, Dst: "/home/u/root/proc"}, {Kind: ROBind, Src: "/sys", Dst: "/home/u/root/sys"}}},
		{"fresh mounts untouched",
			[]Mount{{Kind: Proc, Dst: "/proc"}, {Kind: Tmpfs, Dst: "/tmp"}},
			[]Mount{{Kind: Proc, Dst: "/proc"}, {Kind: Tmpfs, Dst: "/tmp"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := kernelMounts(c.in, fsys)
			if !slices.Equal(got, c.want) {
				t.Errorf("kernelMounts(%v)\n got %v\nwant %v", c.in, got, c.want)
			}
		})
	}
}

// TestProcReadOnly: every fresh /proc is rendered read-only.
func TestProcReadOnly(t *testing.T) {
	t.Parallel()
	got := bwrapMountArgs(Mount{Kind: Proc, Dst: "/proc"})
	if want := []string{"--proc", "/proc", "--remount-ro", "/proc"}; !slices.Equal(got, want) {
		t.Errorf("bwrapMountArgs(proc) = %q, want %q", got, want)
	}
}
