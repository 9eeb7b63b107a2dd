// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
)

// RingSpec describes the agent ring: the namespaces around the agent
// process itself, its file tools and everything it starts (issues #8 and
// #17). It is held to the command sandbox's standard: nothing of the
// host is visible but what is listed here (reads by allow-list, as in
// [Layout]), the agent writes only the workspace and the data part of
// its own state, and it has a PID namespace, /proc, /dev and IPC of its
// own. Every path is absolute and clean.
type RingSpec struct {
	// Command is the session's command sandbox spec, after [DetectHost]:
	// its System and Etc (read-only), Workspace (read-write), Protect
	// (read-only inside it, with placeholders, exactly as for commands),
	// Git, Tools (read-only), Caches (as their layers), Deny (unreadable)
	// and Home are used. Its Read and Write grants are the commands'
	// alone.
	Command Spec
	// Read lists what the agent reads besides the command sandbox's
	// view: its installation, the lite-sandbox binaries, git identity,
	// the read-only part of its own state, agent.read. Read-only when
	// they exist.
	Read []string
	// Write lists the data part of the agent's own state (sessions,
	// history, logs, caches), the user's agent.write paths and the
	// agent's temp dir: read-write when they exist.
	Write []string
	// Layers are the agent's state directories: their entries are bound
	// back read-only onto a scratch directory of the session, so that
	// code-bearing state (settings, hooks, agents, commands, skills,
	// plugins) is read-only by construction while a new name the agent
	// makes beside it lands in the scratch (named at the end). Write
	// paths inside a layer are read-write as usual.
	Layers []Layer
	// Guard lists code-carrying agent configuration inside Write paths
	// (a user who grants a whole state directory with agent.write):
	// read-only, and a read-only placeholder when missing.
	Guard []Protected
	// Credentials are files inside Command.Deny paths that the agent
	// itself needs to log in: they stay readable and writable.
	Credentials []string
	// Hide lists further paths made unreadable wherever a bind shows
	// them (the runtime root with other sessions' sockets).
	Hide []string
	// Tmp is the private temporary directory, bound read-write at /tmp.
	Tmp string
	// Session is the session directory: read-only in the ring (its
	// worker socket still connects, its frozen policy cannot be edited).
	Session string
	// SessionWrite lists directories below Session the agent writes
	// (Pi's per-session agent dir, Crush's -D dir).
	SessionWrite []string
	// Exe is the shim (the bundled lite-sandbox-shim, or lite-sandbox
	// itself), bound read-only over every Shims path so that whatever
	// the agent runs through a shell, or through git, reaches the shim.
	Exe string
	// Shims are the real paths (symlinks resolved) of the host's shell
	// binaries ([ShellBinaries]) and git binaries ([GitBinaries]).
	Shims []string
	// HomeScratch, when set, is a host directory bound at Command.Home:
	// the ring's scratch home, where new names (lock directories and
	// temp files agents create beside their state, such as
	// ~/.claude.json.lock) can be made. Nothing of the real home is
	// there but what the other fields bind onto it. Without it the home
	// is an empty tmpfs.
	HomeScratch string
	// ConnectTCP are the TCP ports the ring may connect to under the
	// Landlock backend (the agent's proxy on the host's loopback,
	// agent.host_ports); bwrap's ring has a network namespace instead.
	ConnectTCP []uint16
}

// Layer is one state directory shown through a scratch directory.
type Layer struct {
	// Dir is the state directory; Scratch the session's host directory
	// bound over it.
	Dir, Scratch string
	// Entries are the names in Dir, bound back read-only.
	Entries []string
}

// RingLayout turns r into the ring's ordered mounts, built like the
// command sandbox's [Layout]: the system directories and the /etc
// entries read-only, a fresh, read-only /proc (of the ring's own PID
// namespace: no host process, no /proc/PID/root into the host, escape
// class 7; no sysctl writable, class 52; [kernelMounts] for binds) and
// /dev (no host devices, a private /dev/shm), the private /tmp, the
// scratch home, the read-only grants (Read, tools, git's common dir),
// the state layers, the writable state and caches, the workspace with
// its protected paths (the command sandbox's own [protectMounts]), the
// guards, the deny masks (with the credential exceptions), the session
// directory, the shells and git bound to the shim, and a read-only
// root. Nothing else of the host exists in the ring: the rest of the
// home, other projects, /mnt, /media, /srv, /run (host sockets), other
// users (escape classes 1, 43, 44).
func RingLayout(r RingSpec, fsys FS) ([]Mount, error) {
	if err := checkRing(r); err != nil {
		return nil, err
	}
	s := r.Command
	sys, err := systemMounts(s.System, fsys)
	if err != nil {
		return nil, fmt.Errorf("ring layout: %w", err)
	}
	ms := sys
	etc, err := etcMounts(s.Etc, fsys)
	if err != nil {
		return nil, fmt.Errorf("ring layout: %w", err)
	}
	ms = append(ms, etc...)
	ms = append(ms, Mount{Kind: Proc, Dst: "/proc"}, Mount{Kind: Dev, Dst: "/dev"}, Mount{Kind: Bind, Src: r.Tmp, Dst: "/tmp"})
	ms = append(ms, homeMount(r, fsys)...)
	ms = append(ms, ringReads(r, sys, fsys)...)
	ms = append(ms, gitHomeMounts(s, fsys, ms)...)
	ms = append(ms, layerMounts(r, fsys)...)
	writes, writable, err := ringWrites(r, fsys)
	if err != nil {
		return nil, err
	}
	ms = append(ms, writes...)
	ws, err := workspaceMount(s.Workspace, fsys)
	if err != nil {
		return nil, fmt.Errorf("ring layout: %w", err)
	}
	ms = append(ms, ws)
	ms = kernelMounts(remountProcDev(ms), fsys)
	prot, err := protectMounts(s, fsys)
	if err != nil {
		return nil, err
	}
	ms = append(ms, prot...)
	gitProt, err := gitProtectBinds(s.Git.Protect, fsys)
	if err != nil {
		return nil, err
	}
	ms = append(ms, gitProt...)
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
	ms = append(ms, shimMounts(r, ms)...)
	// As in [Layout]: the root tmpfs holds the mount points; a write
	// there must fail rather than vanish.
	if lastCovering(ms, "/") < 0 {
		ms = append(ms, Mount{Kind: RemountRO, Dst: "/"})
	}
	return ms, nil
}

// ringReads binds the read-only grants that exist: Read (except what a
// system directory shows already), the tools and git's common
// directory.
func ringReads(r RingSpec, sys []Mount, fsys FS) []Mount {
	s := r.Command
	var list []string
	for _, p := range r.Read {
		if !shownBy(sys, p) {
			list = append(list, p)
		}
	}
	list = append(list, s.Tools...)
	if s.Git.Common != "" {
		list = append(list, s.Git.Common)
	}
	var ms []Mount
	seen := map[string]bool{}
	for _, p := range list {
		if !seen[p] && exists(fsys, p) && !writable(r, p) {
			seen[p] = true
			ms = append(ms, Mount{Kind: ROBind, Src: p, Dst: p})
		}
	}
	return ms
}

// shownBy says whether a bind of sys (the system directories) shows p
// at its own path already.
func shownBy(sys []Mount, p string) bool {
	for _, m := range sys {
		if m.Kind == ROBind && m.Src == m.Dst && hostpath.Within(p, m.Dst) {
			return true
		}
	}
	return false
}

// ringWrites are the ring's read-write binds: the agent's data state and
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
	for _, list := range [][]string{r.Read, r.Write, r.Credentials, r.Hide, r.SessionWrite, r.Shims, s.System, s.Tools, s.Caches, s.Deny, s.Git.Write} {
		for _, p := range list {
			if err := checkAbs("ring path", p); err != nil {
				return fmt.Errorf("ring layout: %w", err)
			}
		}
	}
	for _, name := range s.Etc {
		if err := checkEtcName(name); err != nil {
			return fmt.Errorf("ring layout: %w", err)
		}
	}
	for _, p := range r.SessionWrite {
		if p == r.Session || !hostpath.Within(p, r.Session) {
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
	for _, l := range r.Layers {
		if err := checkAbs("layer", l.Dir); err != nil {
			return fmt.Errorf("ring layout: %w", err)
		}
		if err := checkAbs("layer scratch", l.Scratch); err != nil {
			return fmt.Errorf("ring layout: %w", err)
		}
		for _, n := range l.Entries {
			if n == "" || n == "." || n == ".." || strings.Contains(n, "/") {
				return fmt.Errorf("ring layout: entry %q of %s is not a name", n, l.Dir)
			}
		}
	}
	return nil
}

// homeMount makes the home the session's scratch directory, or an empty
// tmpfs without one: the real home is not there (escape class 1), only
// what the other mounts bind onto it, and a new name lands in the
// scratch, which the launcher names at the end. No home mount for a
// home of / or one the workspace contains (a degraded workspace binds
// it read-write anyway).
func homeMount(r RingSpec, fsys FS) []Mount {
	home := r.Command.Home
	if home == "" || home == "/" || hostpath.Within(home, r.Command.Workspace) {
		return nil
	}
	if fi, err := fsys.Stat(home); err != nil || !fi.IsDir() {
		return nil
	}
	if r.HomeScratch == "" {
		return []Mount{{Kind: Tmpfs, Dst: home}}
	}
	return []Mount{{Kind: Bind, Src: r.HomeScratch, Dst: home}}
}

// layerMounts shows each state directory through its scratch: the
// scratch at the directory, then every entry of the real directory bound
// back read-only (bwrap follows a symlinked entry; a dangling one is
// left out). An entry that is itself bound read-write is left to that
// bind.
func layerMounts(r RingSpec, fsys FS) []Mount {
	var ms []Mount
	for _, l := range r.Layers {
		if fi, err := fsys.Stat(l.Dir); err != nil || !fi.IsDir() {
			continue
		}
		ms = append(ms, Mount{Kind: Bind, Src: l.Scratch, Dst: l.Dir})
		names := slices.Clone(l.Entries)
		slices.Sort(names)
		for _, n := range slices.Compact(names) {
			p := path.Join(l.Dir, n)
			if writable(r, p) || !exists(fsys, p) {
				continue
			}
			ms = append(ms, Mount{Kind: ROBind, Src: p, Dst: p})
		}
		// A missing code-bearing directory (agents/, commands/,
		// plugins/) is an empty read-only one, made inside the scratch:
		// nothing can be planted there even for the rest of the session.
		// A missing file may be made in the scratch, and is gone at the
		// end.
		for _, g := range r.Guard {
			if g.Dir && path.Dir(g.Path) == l.Dir && !exists(fsys, g.Path) {
				ms = append(ms, Mount{Kind: Tmpfs, Dst: g.Path}, Mount{Kind: RemountRO, Dst: g.Path})
			}
		}
	}
	return ms
}

// guardMounts keeps the guards read-only inside the writable paths that
// contain them, with the command sandbox's protect code (pins against
// renames, placeholders for missing paths). A guard outside every
// writable path is read-only anyway.
func guardMounts(r RingSpec, writable []string, fsys FS) ([]Mount, error) {
	var out []Mount
	for _, w := range writable {
		var in []Protected
		for _, g := range r.Guard {
			if g.Path != w && hostpath.Within(g.Path, w) {
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
		ms, err := protectMountsIn(Spec{Workspace: w, Home: r.Command.Home, Protect: in}, fsys, false)
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
				if !used[i] && hostpath.Within(e.Dst, m.Dst) {
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

// RingVisible returns what the ring's mounts ms show at their own path
// (for the path judge): the destinations of binds, links and fresh
// mounts, without the masked ones.
func RingVisible(ms []Mount) []string {
	var out []string
	for _, m := range ms {
		switch m.Kind {
		case ROBind, Bind, Symlink, Proc, Dev, Tmpfs:
			if !slices.Contains(out, m.Dst) {
				out = append(out, m.Dst)
			}
		case MaskDir, MaskFile:
			out = slices.DeleteFunc(out, func(p string) bool { return hostpath.Within(p, m.Dst) })
		}
	}
	return out
}

// writable says whether p itself is bound read-write by [RingLayout].
func writable(r RingSpec, p string) bool {
	return slices.Contains(r.Write, p) || slices.Contains(r.Command.Caches, p) || slices.Contains(r.Command.Git.Write, p) || slices.Contains(r.Credentials, p)
}

// exists reports whether p exists on fsys (following symlinks).
func exists(fsys FS, p string) bool {
	_, err := fsys.Stat(p)
	return err == nil
}

// shimMounts binds the shim over every shell and git of r.Shims that the
// ring shows (a bind mount of the host path covers it): a git on a PATH
// directory the ring does not show needs no shim, and a mount point
// made for it would add a file to the ring.
func shimMounts(r RingSpec, ms []Mount) []Mount {
	var out []Mount
	for _, sh := range r.Shims {
		if sh == r.Exe {
			continue
		}
		// Shown as itself: a bind of the host path onto the same path
		// (not a scratch layer, where bwrap would make the file).
		if i := lastCovering(ms, sh); i >= 0 && (ms[i].Kind == ROBind || ms[i].Kind == Bind) && ms[i].Src == ms[i].Dst {
			out = append(out, Mount{Kind: ROBind, Src: r.Exe, Dst: sh})
		}
	}
	return out
}
