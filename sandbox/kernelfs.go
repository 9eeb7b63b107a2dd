// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"path"
	"slices"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
)

// kernelDirs are where the kernel shows its own interfaces as files:
// sysctls (/proc/sys), /proc/sysrq-trigger, /proc/irq, the devices,
// firmware and cgroups of /sys. As root a sandbox has no user namespace,
// so the files' owner is the caller and the permission bits alone let it
// open them for writing: kernel.core_pattern set to a pipe runs a program
// of the workspace as root on the host (escape class 52). bubblewrap
// covers part of /proc read-only only for an unprivileged caller
// (measured with bwrap 0.8 as root: --proc alone leaves /proc/sys
// writable). So nothing of them is ever writable inside, for root as for
// anyone: every fresh /proc is read-only as a whole (bwrapMountArgs), and
// [kernelMounts] makes every bind that shows /proc or /sys read-only.
var kernelDirs = [...]string{"/proc", "/sys"}

// kernelMounts returns ms with the kernel's directories read-only
// wherever a bind shows them, by construction rather than by a list of
// dangerous files (docs/security-model.md §5, class 52):
//
//   - a bind whose host source is inside /proc or /sys (a grant of
//     /sys/fs/cgroup, of /proc/sys) becomes a read-only bind;
//   - a read-write bind whose source contains /sys (a workspace of /, or
//     a grant reached through a link to /) gets /sys bound read-only on
//     top, recursively, so its submounts (cgroups, securityfs, bpf,
//     debugfs) are read-only too;
//   - any bind whose source contains /proc gets a fresh, read-only /proc
//     on top, as [remountProcDev] does for a bind of / at /: a host
//     /proc would show the host's processes (class 7) and its sysctls.
//
// Sources are compared by their real path, so a link to / is seen
// through. The added mounts go at the end of ms, after every bind.
func kernelMounts(ms []Mount, fsys FS) []Mount {
	out := slices.Clone(ms)
	for i, m := range ms {
		if m.Kind != Bind && m.Kind != ROBind && m.Kind != DevBind {
			continue
		}
		src := m.Src
		if r, err := realPath(fsys, m.Src); err == nil {
			src = r
		}
		for _, k := range kernelDirs {
			switch {
			case hostpath.Within(src, k):
				out[i].Kind = ROBind
			case hostpath.Below(k, src) && exists(fsys, k):
				at := path.Join(m.Dst, strings.TrimPrefix(k, src))
				top := Mount{Kind: Proc, Dst: at}
				if k == "/sys" {
					if m.Kind == ROBind {
						continue // bwrap's read-only bind is recursive
					}
					top = Mount{Kind: ROBind, Src: k, Dst: at}
				}
				if !slices.Contains(out[i+1:], top) {
					out = append(out, top)
				}
			}
		}
	}
	return out
}
