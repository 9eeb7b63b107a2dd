// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// RingSpec describes the agent ring: the mount namespace around the agent
// process itself, its file tools and everything it starts (issue #8). The
// host's filesystem is visible but read-only; the few writable paths are
// listed here. Every path is absolute and clean.
type RingSpec struct {
	// Command is the session's command sandbox spec, after [DetectHost]:
	// its Workspace (read-write), Protect (read-only inside it, with
	// placeholders, exactly as for commands), Git, Caches (read-write when
	// they exist), Deny (unreadable) and Home are used.
	Command Spec
	// Write lists the agent's own state and the user's agent.write paths:
	// read-write when they exist.
	Write []string
	// Guard lists code-carrying agent configuration inside Write paths
	// (settings files, hooks, plugins): read-only, and a read-only
	// placeholder when missing, so the agent cannot plant code the next
	// agent start runs.
	Guard []Protected
	// Credentials are files inside Command.Deny paths that the agent
	// itself needs to log in: they stay readable and writable.
	Credentials []string
	// Hide lists further paths made unreadable (the runtime root with
	// other sessions' sockets).
	Hide []string
	// Read lists paths the private /tmp would hide that the agent needs
	// (the lite-sandbox binary, the agent's own binary): read-only.
	Read []string
	// Tmp is the private temporary directory, bound read-write at /tmp.
	Tmp string
	// Session is the session directory: read-only in the ring (its
	// worker socket still connects, its frozen policy cannot be edited).
	Session string
	// SessionWrite lists directories below Session the agent writes
	// (Pi's per-session agent dir, Crush's -D dir).
	SessionWrite []string
	// Exe is the shim (the bundled lite-sandbox-shim, or lite-sandbox
	// itself), bound read-only over every Shells
	// path so that whatever the agent runs through a shell reaches the
	// shim.
	Exe string
	// Shells are the real paths (symlinks resolved) of the host's shell
	// binaries; see [ShellBinaries].
	Shells []string
	// HomeScratch, when set, is a host directory bound at Command.Home:
	// the ring's scratch home, where new entries (lock directories and
	// temp files agents create beside their state, such as
	// ~/.claude.json.lock) can be made while the real home stays
	// read-only. HomeEntries, the names in the real home, are bound back
	// onto it (read-only, symlinks as symlinks); Write paths among them
	// are bound read-write, deny paths masked, as everywhere else.
	HomeScratch string
	HomeEntries []string
}

// shellNames are the base names of the shells replaced by the shim: the
// POSIX shells a caller may run with -c. The shim dispatches on the same
// names (argv[0]). busybox is left alone: binding over it would replace
// every applet.
var shellNames = []string{"sh", "bash", "rbash", "dash", "zsh", "ksh", "ksh93", "mksh", "lksh", "ash", "yash", "posh"}

// shellDirs are where ShellBinaries looks for shellNames.
var shellDirs = []string{"/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin"}

// ShellBinaries returns the real files behind every shell path that
// exists in dirs (and the extra candidates, such as /etc/shells entries),
// once each, in a stable order. A path whose real file is not named like
// a shell (a link to busybox) is skipped.
func ShellBinaries(fsys FS, dirs, extra []string) []string {
	var cand []string
	for _, d := range dirs {
		for _, n := range shellNames {
			cand = append(cand, path.Join(d, n))
		}
	}
	cand = append(cand, extra...)
	var out []string
	for _, c := range cand {
		if !path.IsAbs(c) || !isShellName(path.Base(c)) {
			continue
		}
		r, err := realPath(fsys, path.Clean(c))
		if err != nil {
			continue
		}
		fi, err := fsys.Stat(r)
		if err != nil || !fi.Mode().IsRegular() || !isShellName(path.Base(r)) {
			continue
		}
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return out
}

// isShellName tells a shell's base name: one of [shellNames] or any name
// containing "bash" (bash-5.2, as the shim's argv[0] dispatch does).
func isShellName(n string) bool {
	return slices.Contains(shellNames, n) || strings.Contains(n, "bash")
}

// RingLayout turns r into the ring's ordered mounts: host / read-only,
// the host's /dev and /proc (no PID namespace: the agent's pty, its own
// ptys and its view of processes stay as they are), the private /tmp,
// the re-exposed Read paths, the writable state and caches, the
// workspace with its protected paths (the command sandbox's own
// [protectMounts]), the guards, the deny masks (with the credential
// exceptions), the session directory and finally the shells bound to the
// shim.
func RingLayout(r RingSpec, fsys FS) ([]Mount, error) {
	if err := checkRing(r); err != nil {
		return nil, err
	}
	s := r.Command
	ms := []Mount{
		{Kind: ROBind, Src: "/", Dst: "/"},
		{Kind: DevBind, Src: "/dev", Dst: "/dev"},
		{Kind: Bind, Src: "/proc", Dst: "/proc"},
		{Kind: Bind, Src: r.Tmp, Dst: "/tmp"},
	}
	for _, p := range r.Read {
		// Only what the private /tmp hid: the rest is visible already.
		if Within(p, "/tmp") && exists(fsys, p) {
			ms = append(ms, Mount{Kind: ROBind, Src: p, Dst: p})
		}
	}
	ms = append(ms, homeMounts(r, fsys)...)
	writes, writable, err := ringWrites(r, fsys)
	if err != nil {
		return nil, err
	}
	ms = append(ms, writes...)
	fi, err := fsys.Stat(s.Workspace)
	if err != nil {
		return nil, fmt.Errorf("ring layout: workspace: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("ring layout: workspace %s is not a directory", s.Workspace)
	}
	ms = append(ms, Mount{Kind: Bind, Src: s.Workspace, Dst: s.Workspace})
	prot, err := protectMounts(s, fsys)
	if err != nil {
		return nil, err
	}
	ms = append(ms, prot...)
	for _, p := range s.Git.Protect {
		if _, err := fsys.Lstat(p); err == nil {
			ms = append(ms, Mount{Kind: ROBind, Src: p, Dst: p})
		}
	}
	guards, err := guardMounts(r, writable, fsys)
	if err != nil {
		return nil, err
	}
	ms = append(ms, guards...)

	masks, err := denyMasks(ms, append(slices.Clone(s.Deny), r.Hide...), fsys)
	if err != nil {
		return nil, err
	}
	ms = append(ms, maskWithExceptions(masks, ringExceptions(r, fsys))...)
	for _, sh := range r.Shells {
		if sh != r.Exe {
			ms = append(ms, Mount{Kind: ROBind, Src: r.Exe, Dst: sh})
		}
	}
	return ms, nil
}

// ringWrites are the ring's read-write binds: the agent's state and
// agent.write paths, git's writable entries, and the caches as the
// command sandbox has them (read-only, or the workspace's own writable
// layer, or shared where the user opted in): an MCP server the agent
// starts with npx must not plant code in the host's ~/.npm either
// (escape class 37). It also returns the writable paths, for the guards.
func ringWrites(r RingSpec, fsys FS) (ms []Mount, writable []string, err error) {
	s := r.Command
	for _, list := range [][]string{r.Write, s.Git.Write} {
		for _, p := range list {
			if exists(fsys, p) && !slices.Contains(writable, p) {
				writable = append(writable, p)
				ms = append(ms, Mount{Kind: Bind, Src: p, Dst: p})
			}
		}
	}
	caches, err := cacheMounts(s, fsys)
	if err != nil {
		return nil, nil, fmt.Errorf("ring layout: caches: %w", err)
	}
	for _, m := range caches {
		if slices.Contains(s.Caches, m.Dst) {
			ms = append(ms, m)
			if m.Kind == Bind {
				writable = append(writable, m.Dst)
			}
		}
	}
	return ms, writable, nil
}

// ringExceptions are bound inside the deny masks: the session directory
// (read-only) and the agent's writable part of it, and the credential
// files the agent itself needs to log in.
func ringExceptions(r RingSpec, fsys FS) []Mount {
	exceptions := []Mount{{Kind: ROBind, Src: r.Session, Dst: r.Session}}
	for _, p := range r.SessionWrite {
		exceptions = append(exceptions, Mount{Kind: Bind, Src: p, Dst: p})
	}
	for _, c := range r.Credentials {
		if exists(fsys, c) {
			exceptions = append(exceptions, Mount{Kind: Bind, Src: c, Dst: c})
		}
	}
	return exceptions
}

// checkRing accepts only absolute, clean paths, and session write paths
// below the session.
func checkRing(r RingSpec) error {
	s := r.Command
	if err := checkAbs("workspace", s.Workspace); err != nil {
		return fmt.Errorf("ring layout: %w", err)
	}
	for _, p := range []struct {
		what string
		p    string
	}{{"tmp", r.Tmp}, {"session", r.Session}, {"exe", r.Exe}} {
		if err := checkAbs(p.what, p.p); err != nil {
			return fmt.Errorf("ring layout: %w", err)
		}
	}
	for _, list := range [][]string{r.Write, r.Credentials, r.Hide, r.Read, r.SessionWrite, r.Shells, s.Caches, s.Deny, s.Git.Write} {
		for _, p := range list {
			if err := checkAbs("ring path", p); err != nil {
				return fmt.Errorf("ring layout: %w", err)
			}
		}
	}
	for _, p := range r.SessionWrite {
		if p == r.Session || !Within(p, r.Session) {
			return fmt.Errorf("ring layout: session write path %s is not below the session %s", p, r.Session)
		}
	}
	for _, g := range r.Guard {
		if err := checkAbs("guard", g.Path); err != nil {
			return fmt.Errorf("ring layout: %w", err)
		}
	}
	if r.HomeScratch != "" {
		if err := checkAbs("home scratch", r.HomeScratch); err != nil {
			return fmt.Errorf("ring layout: %w", err)
		}
	}
	for _, n := range r.HomeEntries {
		if n == "" || n == "." || n == ".." || strings.Contains(n, "/") {
			return fmt.Errorf("ring layout: home entry %q is not a name", n)
		}
	}
	return nil
}

// homeMounts makes the home a scratch layer (bubblewrap has no overlay):
// the scratch directory at the home, then every entry of the real home
// bound back read-only at its own path, a symlink recreated as the same
// symlink (a bind would follow it). An entry that is itself bound
// read-write (state, a cache) or the workspace is left to that bind. The
// real home stays unwritable (escape class 8): only new names land in
// the scratch, and the launcher names them at the end. No scratch for a
// home of / or one the workspace contains (a degraded workspace binds
// it read-write anyway).
func homeMounts(r RingSpec, fsys FS) []Mount {
	home := r.Command.Home
	if r.HomeScratch == "" || home == "" || home == "/" || Within(home, r.Command.Workspace) {
		return nil
	}
	if fi, err := fsys.Stat(home); err != nil || !fi.IsDir() {
		return nil
	}
	ms := []Mount{{Kind: Bind, Src: r.HomeScratch, Dst: home}}
	names := slices.Clone(r.HomeEntries)
	slices.Sort(names)
	for _, n := range slices.Compact(names) {
		p := path.Join(home, n)
		fi, err := fsys.Lstat(p)
		if err != nil {
			continue // gone since it was listed
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			// Also for a writable one: its bind then lands on the link's
			// target, as on the host, where the guards inside it are.
			if t, err := fsys.Readlink(p); err == nil {
				ms = append(ms, Mount{Kind: Symlink, Src: t, Dst: p})
			}
			continue
		}
		if p == r.Command.Workspace || writable(r, p) && exists(fsys, p) {
			continue
		}
		ms = append(ms, Mount{Kind: ROBind, Src: p, Dst: p})
	}
	return ms
}

// guardMounts keeps the guards read-only inside the writable paths that
// contain them, with the command sandbox's protect code (pins against
// renames, placeholders for missing paths). A guard outside every
// writable path is read-only anyway (host / is).
func guardMounts(r RingSpec, writable []string, fsys FS) ([]Mount, error) {
	var out []Mount
	for _, w := range writable {
		var in []Protected
		for _, g := range r.Guard {
			if g.Path != w && Within(g.Path, w) {
				in = append(in, g)
			}
		}
		if len(in) == 0 {
			continue
		}
		fi, err := fsys.Stat(w)
		if err != nil || !fi.IsDir() {
			continue
		}
		ms, err := protectMounts(Spec{Workspace: w, Home: r.Command.Home, Protect: in}, fsys)
		if err != nil {
			return nil, fmt.Errorf("ring layout: guard: %w", err)
		}
		out = append(out, ms...)
	}
	return out, nil
}

// maskWithExceptions renders the masks, putting each exception that lies
// inside a masked directory into the mask's tmpfs before it is made
// read-only (bwrap creates the mount point there); a masked file that is
// itself an exception is not masked. The remaining exceptions follow.
func maskWithExceptions(masks, exceptions []Mount) []Mount {
	var out []Mount
	used := make([]bool, len(exceptions))
	for _, m := range masks {
		switch m.Kind {
		case MaskFile:
			skip := false
			for i, e := range exceptions {
				if e.Dst == m.Dst {
					used[i], skip = true, true
				}
			}
			if !skip {
				out = append(out, m)
			}
		case MaskDir:
			var inside []Mount
			for i, e := range exceptions {
				if !used[i] && Within(e.Dst, m.Dst) {
					used[i] = true
					inside = append(inside, e)
				}
			}
			if len(inside) == 0 {
				out = append(out, m)
				continue
			}
			out = append(out, Mount{Kind: Tmpfs, Dst: m.Dst})
			out = append(out, inside...)
			out = append(out, Mount{Kind: RemountRO, Dst: m.Dst})
		default:
			out = append(out, m)
		}
	}
	for i, e := range exceptions {
		if !used[i] {
			out = append(out, e)
		}
	}
	return out
}

// RingBwrapArgs returns the bwrap command line of the ring, without the
// bwrap program: no PID, network, IPC or user-visible namespace of its
// own (signals, the pty, resize and the network stay the agent's), no
// new session (the agent keeps its controlling terminal), every
// capability dropped, and the ring dies with the launcher. The working
// directory is left to bwrap, which keeps the launcher's.
func RingBwrapArgs(mounts []Mount, argv []string) []string {
	args := []string{"--die-with-parent", "--cap-drop", "ALL"}
	for _, m := range mounts {
		args = append(args, bwrapMountArgs(m)...)
	}
	args = append(args, "--")
	return append(args, argv...)
}

// writable says whether p itself is bound read-write by [RingLayout].
func writable(r RingSpec, p string) bool {
	return slices.Contains(r.Write, p) || slices.Contains(r.Command.Caches, p) || slices.Contains(r.Command.Git.Write, p)
}

// exists reports whether p exists on fsys (following symlinks).
func exists(fsys FS, p string) bool {
	_, err := fsys.Stat(p)
	return err == nil
}
