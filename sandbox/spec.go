// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"fmt"
	"net/netip"
	"path"
	"slices"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
)

// Spec is the platform-neutral description of one sandbox. Every path is
// an absolute, clean, slash-separated host path, and (except for symlinks
// of system directories) appears at the same path inside the sandbox.
type Spec struct {
	// Workspace is mounted read-write, after every other bind, so that it
	// wins over /tmp, the system directories and the extra grants.
	Workspace string
	// Home is the user's home directory, used for ~ expansion and for
	// [Degraded]. It is never mounted as such.
	Home string
	// ScratchHome, when set, is a private host directory bound at Home
	// instead of the empty tmpfs: a session's scratch home, which the
	// launcher can list and keep after the sandbox is gone (the tmpfs
	// lives in the worker's mount namespace and dies with it).
	ScratchHome string
	// System lists read-only system directories (/usr, /bin, ...).
	System []string
	// Etc lists names below /etc that are visible read-only; the rest of
	// /etc (shadow, sudoers, ssh host keys) is absent.
	Etc []string
	// Read lists extra read-only paths.
	Read []string
	// Write lists extra read-write paths.
	Write []string
	// Deny lists paths masked after all binds, so that they stay hidden
	// when they lie inside something mounted (for example the workspace
	// is the home directory and ~/.ssh is denied).
	Deny []string
	// Tools lists toolchain directories mounted read-only when they
	// exist; Caches, cache directories mounted read-write when they
	// exist. Both usually lie in the home directory, which is otherwise
	// an empty tmpfs inside.
	Tools  []string
	Caches []string
	// SharedCaches lists the Caches mounted read-write as they are (the
	// user's opt-in); the others get a per-workspace writable layer in
	// CacheLayer, or are read-only when it is "" (see cacheMounts).
	SharedCaches []string
	CacheLayer   string
	// GoCacheProg is a binary that serves `__gocacheprog` (lite-sandbox or
	// the shim, package gocacheprog): when Go's build cache gets a layer,
	// the go command inside uses it, and it asks the launcher's server on
	// GoCacheSocket (gocacheprog.Listen over [GoBuildCacheServed]) for
	// the host's compiled packages by exact action ID (see cacheMounts).
	// "" leaves the layer cold; no socket, the layer alone.
	GoCacheProg   string
	GoCacheSocket string
	// Protect lists paths inside the workspace that stay read-only
	// (escape classes 9 to 15), whether or not they exist yet.
	Protect []Protected
	// Unprotect lists paths inside the workspace the user took out of
	// Protect (sandbox.unprotect): nothing at or below them is protected,
	// including what [DetectHost] finds in .git (escape class 61: the
	// refusal's message names unprotect as the way out).
	Unprotect []string
	// Git holds what git needs outside the workspace (a linked
	// worktree's common directory); see [DetectHost].
	Git gitDirs
	// GitHome is the user's global git configuration as the sandbox
	// shows it: a sanitized read-only copy at ~/.gitconfig and the
	// files it names (the global hooks directory, ...); see
	// [userGitConfig].
	GitHome gitHome
	// Network is [NetworkOpen], [NetworkAllow] or [NetworkOff]. Anything
	// but open unshares the network (allow reaches the host only through
	// the egress proxy's socket, which the caller adds to Read). Any
	// other value, including "", is treated as off (fail closed).
	Network string
	// UserNet is the user-space network stack's program that connects
	// the sandbox's own namespace to the internet when Network is
	// [NetworkOpen] (set by Prepare from [UserNetPath]); "" under open
	// shares the host's network (docs/egress.md, "network = open").
	UserNet string
	// Exempt are the prefixes sandbox.allow_addresses names, taken out
	// of the ranges network = "open" prohibits (a registry on the LAN,
	// the user's own choice; docs/egress.md "Grants under open").
	Exempt []netip.Prefix
	// Cwd is the directory the command starts in. It must lie inside the
	// workspace or a Read or Write path; [Prepare] checks this.
	Cwd string
	// GitEvents is a host directory bound read-write at itself, where
	// git inside writes its trace2 events (GIT_TRACE2_EVENT, set by the
	// caller) so that a write of git's configuration refused half-way
	// by a program the command ran is explained after it (issue #31,
	// docs/confinement.md "Git"); "" for none. Nothing in it is ever
	// run or read as configuration by the host.
	GitEvents string
	// hostDetected is set by [DetectHost], so that a spec the caller
	// completed is not read from the disk twice.
	hostDetected bool
}

// Network modes of a [Spec].
const (
	NetworkOpen  = "open"  // the internet, through a user-space stack; not the host's neighbourhood
	NetworkHost  = "host"  // the host's network is shared (the opt-out of open's limits)
	NetworkAllow = "allow" // loopback only, plus the egress proxy's socket (package egress)
	NetworkOff   = "off"   // a loopback-only network namespace
)

// Grants are the policy's sandbox lists, as [NewSpec] takes them: paths
// may start with "~/"; Protect entries are relative to the workspace (a
// trailing "/" marks a directory); Etc entries are names below /etc.
type Grants struct {
	Network string
	Lists
	// Unprotect lists workspace-relative paths taken out of protection
	// (the user's sandbox.unprotect).
	Unprotect []string
	// AllowAddresses are the user's sandbox.allow_addresses (IP,
	// prefix, IP:port): under open, their addresses are exempt from the
	// prohibit routes ([Spec.Exempt]).
	AllowAddresses []string
}

// Lists are the mount lists, declared once: the policy's [sandbox]
// table decodes into them (its files, its merged policy), and [NewSpec]
// resolves them. A new kind of mount adds a field here, to [Spec] and
// to the layouts (AGENTS.md, "Add a mount").
type Lists struct {
	// System lists host directories mounted read-only at the same path.
	System []string `toml:"system"`
	// Etc lists the entries of /etc that are visible (read-only); the
	// rest of /etc is absent.
	Etc []string `toml:"etc"`
	// Read and Write list extra host paths mounted read-only and
	// read-write (may start with ~/).
	Read  []string `toml:"read"`
	Write []string `toml:"write"`
	// Deny lists paths that are never visible, even inside a mounted
	// directory.
	Deny []string `toml:"deny"`
	// Tools lists toolchains mounted read-only when they exist.
	Tools []string `toml:"tools"`
	// Caches lists caches mounted through a per-workspace writable layer
	// when they exist; SharedCaches those of them shared read-write with
	// the host instead.
	Caches       []string `toml:"caches"`
	SharedCaches []string `toml:"shared_caches"`
	// Protect lists paths relative to the workspace that stay read-only
	// although the workspace is writable (a trailing "/": a directory
	// placeholder).
	Protect []string `toml:"protect"`
}

// NewSpec builds the Spec for one command from the policy's grants.
// It expands "~" and "~/x" with home, cleans every path and rejects
// relative ones: a relative grant has no safe meaning. An empty cwd
// means the workspace; a relative cwd is taken relative to it.
func NewSpec(p Grants, workspace, home, cwd string) (Spec, error) {
	if workspace == "" || !path.IsAbs(workspace) {
		return Spec{}, fmt.Errorf("sandbox spec: workspace %q is not an absolute path", workspace)
	}
	if home != "" {
		if !path.IsAbs(home) {
			return Spec{}, fmt.Errorf("sandbox spec: home %q is not an absolute path", home)
		}
		home = path.Clean(home)
	}
	s := Spec{
		Workspace: path.Clean(workspace),
		Home:      home,
	}
	switch p.Network {
	case "", NetworkOpen:
		// The default: the internet (with a user-space stack, Prepare).
		s.Network = NetworkOpen
	case NetworkOff, NetworkAllow, NetworkHost:
		s.Network = p.Network
	default:
		return Spec{}, fmt.Errorf("sandbox spec: unknown network mode %q (want %q, %q, %q or %q)",
			p.Network, NetworkOpen, NetworkAllow, NetworkOff, NetworkHost)
	}
	var err error
	if s.Exempt, err = exemptPrefixes(p.AllowAddresses); err != nil {
		return Spec{}, err
	}
	if s.System, err = expandAll("system", p.System, home); err != nil {
		return Spec{}, err
	}
	if s.Read, err = expandAll("read", p.Read, home); err != nil {
		return Spec{}, err
	}
	if s.Write, err = expandAll("write", p.Write, home); err != nil {
		return Spec{}, err
	}
	if s.Deny, err = expandAll("deny", p.Deny, home); err != nil {
		return Spec{}, err
	}
	// Tools and caches only make sense with a home directory; a missing
	// one is skipped rather than failing every command.
	if home != "" {
		if s.Tools, err = expandAll("tools", p.Tools, home); err != nil {
			return Spec{}, err
		}
		if s.Caches, err = expandAll("caches", p.Caches, home); err != nil {
			return Spec{}, err
		}
		if s.SharedCaches, err = expandAll("shared_caches", p.SharedCaches, home); err != nil {
			return Spec{}, err
		}
	}
	if err := s.protectFrom(p); err != nil {
		return Spec{}, err
	}
	for _, name := range p.Etc {
		if err := checkEtcName(name); err != nil {
			return Spec{}, fmt.Errorf("sandbox spec: %w", err)
		}
		s.Etc = append(s.Etc, name)
	}
	switch {
	case cwd == "":
		s.Cwd = s.Workspace
	case path.IsAbs(cwd):
		s.Cwd = path.Clean(cwd)
	default:
		s.Cwd = path.Join(s.Workspace, cwd)
	}
	return s, nil
}

// protectFrom fills Protect and Unprotect from the grants: the
// protected paths, the home's start-up files in a degraded workspace
// ([homeCode]), less what the user unprotects.
func (s *Spec) protectFrom(p Grants) error {
	for _, rel := range p.Protect {
		pr, err := protectedAt(s.Workspace, rel)
		if err != nil {
			return fmt.Errorf("sandbox spec: protect: %w", err)
		}
		s.Protect = appendProtected(s.Protect, pr)
	}
	if degraded, _ := Degraded(s.Workspace, s.Home); degraded {
		for _, pr := range homeProtect(s.Workspace, s.Home) {
			if i := slices.IndexFunc(s.Protect, func(o Protected) bool { return o.Path == pr.Path }); i >= 0 {
				s.Protect[i].Home = true // .claude/ is in the project list too
				continue
			}
			s.Protect = append(s.Protect, pr)
		}
	}
	for _, rel := range p.Unprotect {
		pr, err := protectedAt(s.Workspace, rel)
		if err != nil {
			return fmt.Errorf("sandbox spec: unprotect: %w", err)
		}
		s.Unprotect = append(s.Unprotect, pr.Path)
	}
	s.Protect = dropUnprotected(s.Protect, s.Unprotect)
	return nil
}

// Protected is one path of [Spec.Protect].
type Protected struct {
	// Path is absolute and clean.
	Path string
	// Dir says that a placeholder for a missing Path is a directory.
	Dir bool
	// Home marks a start-up file of the home directory in a degraded
	// workspace ([homeCode]): it gets a placeholder although nothing else
	// is created in such a workspace.
	Home bool
}

// protectedAt turns a workspace-relative protect entry into a Protected.
func protectedAt(ws, rel string) (Protected, error) {
	if rel == "" || path.IsAbs(rel) || strings.IndexByte(rel, 0) >= 0 {
		return Protected{}, fmt.Errorf("%q is not a path relative to the workspace", rel)
	}
	p := path.Join(ws, rel)
	if p == ws || !hostpath.Within(p, ws) {
		return Protected{}, fmt.Errorf("%q lies outside the workspace", rel)
	}
	return Protected{Path: p, Dir: strings.HasSuffix(rel, "/")}, nil
}

// dropUnprotected removes from list every path at or below one of
// unprotect.
func dropUnprotected(list []Protected, unprotect []string) []Protected {
	return slices.DeleteFunc(list, func(pr Protected) bool {
		return slices.ContainsFunc(unprotect, func(u string) bool { return hostpath.Within(pr.Path, u) })
	})
}

// appendProtected adds pr unless its path is already there.
func appendProtected(list []Protected, pr Protected) []Protected {
	for _, o := range list {
		if o.Path == pr.Path {
			return list
		}
	}
	return append(list, pr)
}

// expandAll expands and checks the paths of one policy list.
func expandAll(field string, paths []string, home string) ([]string, error) {
	var out []string
	for _, p := range paths {
		e, err := ExpandHome(p, home)
		if err != nil {
			return nil, fmt.Errorf("sandbox spec: %s: %w", field, err)
		}
		out = append(out, e)
	}
	return out, nil
}

// ExpandHome expands a leading "~" or "~/" and returns a clean absolute
// path. "~user" is rejected: it would need a user database lookup, and
// guessing could grant the wrong directory.
func ExpandHome(p, home string) (string, error) {
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		if home == "" {
			return "", fmt.Errorf("path %q needs the home directory, which is unknown", p)
		}
		return path.Join(home, p[1:]), nil
	case strings.HasPrefix(p, "~"):
		return "", fmt.Errorf("path %q: only ~ and ~/ are supported", p)
	case !path.IsAbs(p):
		return "", fmt.Errorf("path %q is not absolute (start it with / or ~/)", p)
	case strings.IndexByte(p, 0) >= 0:
		return "", fmt.Errorf("path %q contains a NUL byte", p)
	}
	return path.Clean(p), nil
}

// Degraded reports whether the workspace makes the sandbox much weaker
// than the policy suggests, with a reason for the status line: the
// workspace is mounted read-write, so a workspace of / or of the home
// directory (or any ancestor of it) makes rc files, ~/.ssh and every other
// project writable (escape classes 8 and 34). The [Spec.Deny] masks still
// apply in that case.
func Degraded(workspace, home string) (bool, string) {
	ws := path.Clean(workspace)
	if ws == "/" {
		return true, "workspace / makes the whole filesystem writable"
	}
	if home == "" {
		return false, ""
	}
	h := path.Clean(home)
	switch {
	case ws == h:
		return true, fmt.Sprintf("workspace %s is the home directory: everything in it becomes writable", ws)
	case hostpath.Within(h, ws):
		return true, fmt.Sprintf("workspace %s contains the home directory %s: everything under it becomes writable", ws, h)
	}
	return false, ""
}
