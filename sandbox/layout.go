// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
)

// MountKind says what one [Mount] puts at its destination.
type MountKind int

// The mount kinds. Binds take a host source; the others create something
// fresh inside the sandbox.
const (
	// ROBind binds host path Src read-only at Dst (bwrap follows Src if
	// it is a symlink).
	ROBind MountKind = iota + 1
	// Bind binds host path Src read-write at Dst.
	Bind
	// Symlink creates a symlink at Dst whose target is Src.
	Symlink
	// Proc mounts a fresh procfs of the sandbox's PID namespace at Dst,
	// read-only as a whole (escape class 52, kernelfs.go).
	Proc
	// Dev mounts a minimal fresh /dev (null, zero, random, tty, pts...).
	Dev
	// Tmpfs mounts a fresh, empty, writable tmpfs at Dst.
	Tmpfs
	// Dir creates an empty directory at Dst.
	Dir
	// MaskDir hides the directory at Dst behind an empty read-only tmpfs.
	MaskDir
	// MaskFile hides the file at Dst behind a read-only bind of
	// /dev/null: it reads as empty and cannot be written.
	MaskFile
	// RemountRO makes the mount at Dst read-only (not the mounts below
	// it).
	RemountRO
	// PlaceholderDir is an empty read-only directory standing in for a
	// protected path that does not exist yet (escape class 13). bwrap
	// creates the empty directory on the host as its mount point; see
	// [RemovePlaceholders].
	PlaceholderDir
	// PlaceholderFile is a read-only, unreadable file (a bind of
	// /dev/null on a nodev mount) standing in for a protected file that
	// does not exist yet.
	PlaceholderFile
	// DevBind binds host path Src at Dst read-write with its devices
	// usable (the agent ring's /dev: its pty and the agent's own ptys).
	DevBind
	// Guard mounts nothing: the protected path Dst (below the root Src)
	// does not exist, and a launcher-side guard moves it to quarantine
	// when a sandbox creates it (package guard; a placeholder would be a
	// name on the host that packers and archivers pick up, #31).
	Guard
)

var mountKindNames = [...]string{
	ROBind:          "ro-bind",
	Bind:            "bind",
	Symlink:         "symlink",
	Proc:            "proc",
	Dev:             "dev",
	Tmpfs:           "tmpfs",
	Dir:             "dir",
	MaskDir:         "mask-dir",
	MaskFile:        "mask-file",
	RemountRO:       "remount-ro",
	PlaceholderDir:  "placeholder-dir",
	PlaceholderFile: "placeholder-file",
	DevBind:         "dev-bind",
	Guard:           "guard",
}

// String returns the kind's name, as in "ro-bind".
func (k MountKind) String() string {
	if k > 0 && int(k) < len(mountKindNames) {
		return mountKindNames[k]
	}
	return fmt.Sprintf("MountKind(%d)", int(k))
}

// Mount is one step of the sandbox's filesystem layout. Steps apply in
// order, so a later mount hides what an earlier one put at or below its
// destination.
type Mount struct {
	Kind MountKind
	Src  string // host path for binds, link target for Symlink, else ""
	Dst  string // path inside the sandbox
}

// String returns "kind [src] dst", for test output and debugging.
func (m Mount) String() string {
	if m.Src == "" {
		return m.Kind.String() + " " + m.Dst
	}
	return m.Kind.String() + " " + m.Src + " " + m.Dst
}

// Layout turns a Spec into the ordered list of mounts, looking at the host
// filesystem through fsys. The order is: system directories, /etc
// entries, a fresh /proc, /dev and /tmp, the Read grants, the Write
// grants, the workspace (last of all binds, so that it wins over /tmp and
// over read-only grants that contain it), the kernel's directories made
// read-only wherever a bind shows them ([kernelMounts]), the Deny masks,
// and finally a read-only remount of the sandbox's root. The fresh /proc
// is read-only too, so nothing of the kernel's settings is writable, as
// root either (escape class 52).
//
// Missing system directories, /etc entries and grants are skipped; a
// missing workspace is an error. Nothing else is mounted: $HOME, ~/.ssh
// and other projects simply do not exist inside (escape class 1), and
// the sandbox's root is remounted read-only, so a write outside the
// writable mounts fails (escape class 8).
func Layout(s Spec, fsys FS) ([]Mount, error) {
	if err := checkSpec(s); err != nil {
		return nil, err
	}
	var ms []Mount
	sys, err := systemMounts(s.System, fsys)
	if err != nil {
		return nil, err
	}
	ms = append(ms, sys...)
	etc, err := etcMounts(s.Etc, fsys)
	if err != nil {
		return nil, err
	}
	ms = append(ms, etc...)
	ms = append(ms, freshMounts(s)...)
	grants, err := grantMounts(s, fsys)
	if err != nil {
		return nil, err
	}
	ms = append(ms, grants...)
	caches, err := cacheMounts(s, fsys)
	if err != nil {
		return nil, fmt.Errorf("sandbox layout: cache: %w", err)
	}
	ms = append(ms, caches...)
	ms = append(ms, gitEventsMount(s, fsys)...)
	ms = append(ms, gitHomeMounts(s, fsys, ms)...)
	ws, err := workspaceMount(s.Workspace, fsys)
	if err != nil {
		return nil, err
	}
	ms = append(ms, ws)
	ms = kernelMounts(remountProcDev(ms), fsys)

	prot, err := protectMounts(s, fsys)
	if err != nil {
		return nil, err
	}
	ms = append(ms, prot...)
	gitProt, err := gitProtectMounts(s.Git, fsys)
	if err != nil {
		return nil, err
	}
	ms = append(ms, gitProt...)

	masks, err := denyMasks(ms, s.Deny, fsys)
	if err != nil {
		return nil, err
	}
	ms = append(ms, masks...)

	// bwrap builds the sandbox on a writable tmpfs root, which holds /etc,
	// the parents of the workspace and so on: without this, a write to
	// ~/.bashrc or /etc/x would "succeed" into that tmpfs and confuse the
	// agent. Remounting it read-only does not touch the mounts on it. A
	// workspace of / is itself the mount at /, and must stay writable.
	if lastCovering(ms, "/") < 0 {
		ms = append(ms, Mount{Kind: RemountRO, Dst: "/"})
	}
	return ms, nil
}

// checkSpec checks that every path of s is absolute and every /etc entry
// a plain name, before anything looks at the host.
func checkSpec(s Spec) error {
	if err := checkAbs("workspace", s.Workspace); err != nil {
		return fmt.Errorf("sandbox layout: %w", err)
	}
	for _, list := range []struct {
		what  string
		paths []string
	}{{"system path", s.System}, {"read path", s.Read}, {"write path", s.Write}, {"deny path", s.Deny},
		{"tool path", s.Tools}, {"cache path", s.Caches}, {"git path", s.Git.paths()},
		{"git config path", s.GitHome.paths()}, {"git events path", s.gitEventsPaths()}} {
		for _, p := range list.paths {
			if err := checkAbs(list.what, p); err != nil {
				return fmt.Errorf("sandbox layout: %w", err)
			}
		}
	}
	for _, name := range s.Etc {
		if err := checkEtcName(name); err != nil {
			return fmt.Errorf("sandbox layout: %w", err)
		}
	}
	return nil
}

// etcMounts binds the /etc entries that exist, read-only.
func etcMounts(names []string, fsys FS) ([]Mount, error) {
	var ms []Mount
	for _, name := range names {
		p := "/etc/" + name
		// Stat, not Lstat: a symlink such as /etc/localtime is bound
		// through (bwrap follows the source), a dangling one is skipped.
		if _, err := fsys.Stat(p); err != nil {
			if missing(err) {
				continue
			}
			return nil, fmt.Errorf("sandbox layout: /etc entry: %w", err)
		}
		ms = append(ms, Mount{Kind: ROBind, Src: p, Dst: p})
	}
	return ms, nil
}

// freshMounts creates what the sandbox gets new rather than from the
// host: /proc, /dev, /tmp and the home directory.
func freshMounts(s Spec) []Mount {
	// A fresh /proc of the new PID namespace: the host's /proc would
	// expose /proc/<host pid>/root (escape class 7).
	ms := []Mount{
		{Kind: Proc, Dst: "/proc"},
		{Kind: Dev, Dst: "/dev"},
		{Kind: Tmpfs, Dst: "/tmp"},
	}
	// The home directory is an empty tmpfs: tools that write ~/.config
	// or ~/.cache do not crash, while the real home stays absent (escape
	// classes 1 and 8). Tools and caches found there are bound on top.
	if s.Home != "" && s.Home != "/" {
		if s.ScratchHome != "" {
			ms = append(ms, Mount{Kind: Bind, Src: s.ScratchHome, Dst: s.Home})
		} else {
			ms = append(ms, Mount{Kind: Tmpfs, Dst: s.Home})
		}
	}
	return ms
}

// grantMounts binds the grants that exist: Read, Write, Tools, then the
// git common directory (read-only) and the git directories written.
func grantMounts(s Spec, fsys FS) ([]Mount, error) {
	var gitRead []string
	if s.Git.Common != "" {
		gitRead = []string{s.Git.Common}
	}
	var ms []Mount
	for _, g := range []struct {
		kind  MountKind
		paths []string
	}{{ROBind, s.Read}, {Bind, s.Write}, {ROBind, s.Tools}, {ROBind, gitRead}, {Bind, s.Git.Write}} {
		for _, p := range g.paths {
			if _, err := fsys.Stat(p); err != nil {
				if missing(err) {
					continue
				}
				return nil, fmt.Errorf("sandbox layout: grant %s: %w", p, err)
			}
			ms = append(ms, Mount{Kind: g.kind, Src: p, Dst: p})
		}
	}
	return ms, nil
}

// workspaceMount binds the workspace read-write; it must be a directory.
func workspaceMount(ws string, fsys FS) (Mount, error) {
	fi, err := fsys.Stat(ws)
	if err != nil {
		return Mount{}, fmt.Errorf("sandbox layout: workspace: %w", err)
	}
	if !fi.IsDir() {
		return Mount{}, fmt.Errorf("sandbox layout: workspace %s is not a directory", ws)
	}
	return Mount{Kind: Bind, Src: ws, Dst: ws}, nil
}

// remountProcDev appends a fresh /proc and /dev again when a bind in ms
// covers them. A bind of / (a degraded workspace) or of /dev or /proc
// themselves brings the host's /proc and /dev along (binds are
// recursive), so fresh ones go on top (escape class 7).
func remountProcDev(ms []Mount) []Mount {
	for _, fresh := range []Mount{{Kind: Proc, Dst: "/proc"}, {Kind: Dev, Dst: "/dev"}} {
		for _, m := range ms {
			if (m.Kind == ROBind || m.Kind == Bind) && hostpath.Within(fresh.Dst, m.Dst) {
				ms = append(ms, fresh)
				break
			}
		}
	}
	return ms
}

// gitProtectMounts binds the git control files that exist read-only on
// themselves, then stands placeholders in for the missing ones.
func gitProtectMounts(g gitDirs, fsys FS) ([]Mount, error) {
	ms, err := gitProtectBinds(g.Protect, fsys)
	if err != nil {
		return nil, err
	}
	return append(ms, gitPlaceholderMounts(g.Placeholders, fsys)...), nil
}

// gitProtectBinds binds the git control files of paths that exist
// read-only on themselves. One that is a symbolic link is refused, as in
// the workspace (escape class 60): its directory is writable, so the
// link could be replaced.
func gitProtectBinds(paths []string, fsys FS) ([]Mount, error) {
	var ms []Mount
	for _, p := range paths {
		fi, err := fsys.Lstat(p)
		if err != nil {
			continue
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := fsys.Readlink(p)
			return nil, &LinkError{Protected: p, Link: p, Target: target}
		}
		ms = append(ms, Mount{Kind: ROBind, Src: p, Dst: p})
	}
	return ms, nil
}

// systemMounts mounts the system directories. On merged-/usr systems /bin,
// /lib and /sbin are symlinks into /usr: they become symlinks inside the
// sandbox too, as long as their target is visible through another system
// directory; otherwise the path is bound (bwrap follows the link).
func systemMounts(dirs []string, fsys FS) ([]Mount, error) {
	type entry struct {
		path   string
		link   string // symlink target, "" for a directory
		real   string
		exists bool
	}
	entries := make([]entry, 0, len(dirs))
	for _, d := range dirs {
		e := entry{path: d}
		fi, err := fsys.Lstat(d)
		if err != nil {
			if missing(err) {
				entries = append(entries, e)
				continue
			}
			return nil, fmt.Errorf("sandbox layout: system path: %w", err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			if e.link, err = fsys.Readlink(d); err != nil {
				return nil, fmt.Errorf("sandbox layout: system path: %w", err)
			}
		}
		if e.real, err = realPath(fsys, d); err != nil {
			if missing(err) {
				entries = append(entries, e) // dangling symlink
				continue
			}
			return nil, fmt.Errorf("sandbox layout: system path: %w", err)
		}
		e.exists = true
		entries = append(entries, e)
	}

	var ms []Mount
	for i, e := range entries {
		if !e.exists {
			continue
		}
		if e.link == "" {
			ms = append(ms, Mount{Kind: ROBind, Src: e.path, Dst: e.path})
			continue
		}
		covered := false
		for j, o := range entries {
			if j != i && o.exists && o.link == "" && hostpath.Within(e.real, o.real) {
				covered = true
				break
			}
		}
		if covered {
			ms = append(ms, Mount{Kind: Symlink, Src: e.link, Dst: e.path})
		} else {
			ms = append(ms, Mount{Kind: ROBind, Src: e.path, Dst: e.path})
		}
	}
	return ms, nil
}

// denyMasks masks every Deny path wherever a bind in ms makes it visible.
// A path is compared by its real location, so that a denied symlink such
// as ~/.ssh -> ~/dotfiles/ssh (stow, home-manager) masks the directory the
// link points to, and a workspace reached through a symlinked ancestor
// still gets its masks at the sandbox-side path. Paths that do not exist,
// or that nothing mounts, need no mask: emitting one would make bwrap fail
// (and a failing mask must not abort every command: users' dotfiles are
// often symlinks).
func denyMasks(ms []Mount, deny []string, fsys FS) ([]Mount, error) {
	srcReal := make([]string, len(ms))
	for i, m := range ms {
		if m.Kind != ROBind && m.Kind != Bind {
			continue
		}
		r, err := realPath(fsys, m.Src)
		if err != nil {
			if missing(err) {
				continue
			}
			return nil, fmt.Errorf("sandbox layout: %s: %w", m.Src, err)
		}
		srcReal[i] = r
	}

	var masks []Mount
	seen := map[string]bool{}
	for _, d := range deny {
		r, err := realPath(fsys, d)
		if err != nil {
			if missing(err) {
				continue
			}
			return nil, fmt.Errorf("sandbox layout: deny path: %w", err)
		}
		fi, err := fsys.Stat(r)
		if err != nil {
			if missing(err) {
				continue
			}
			return nil, fmt.Errorf("sandbox layout: deny path: %w", err)
		}
		kind := MaskFile
		if fi.IsDir() {
			kind = MaskDir
		}
		for i, m := range ms {
			if srcReal[i] == "" || !hostpath.Within(r, srcReal[i]) {
				continue
			}
			q := path.Join(m.Dst, strings.TrimPrefix(r, srcReal[i]))
			if seen[q] || lastCovering(ms, q) != i {
				// Hidden by a later mount: whatever is visible at q
				// comes from that mount and is handled through it.
				continue
			}
			seen[q] = true
			masks = append(masks, Mount{Kind: kind, Dst: q})
		}
	}
	return masks, nil
}

// lastCovering returns the index of the last mount in ms whose destination
// is p or an ancestor of p, which is the mount that p shows, or -1.
func lastCovering(ms []Mount, p string) int {
	for i := len(ms) - 1; i >= 0; i-- {
		switch ms[i].Kind {
		case ROBind, Bind, Proc, Dev, Tmpfs, MaskDir, MaskFile, PlaceholderDir, PlaceholderFile:
			if hostpath.Within(p, ms[i].Dst) {
				return i
			}
		}
	}
	return -1
}
