// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package policy

import (
	"fmt"
	"slices"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
)

// Version is the only policy schema version this build understands.
const Version = 1

// Policy is the effective, merged policy of one run or session. It is a
// plain value: once loaded it is never changed, so a session can freeze it.
type Policy struct {
	Version int      `toml:"version"`
	Sandbox Sandbox  `toml:"sandbox"`
	Shell   Shell    `toml:"shell"`
	Agent   Agent    `toml:"agent"`
	Rules   []Rule   `toml:"rule"`
	Sources []string `toml:"-"` // the files that made this policy, in order
}

// Sandbox is the part of the policy the OS sandbox enforces.
type Sandbox struct {
	// Mode is auto, on or off; see [Mode].
	Mode string `toml:"mode"`
	// Network is open (the host's network is shared), allow (only
	// AllowDomains, through lite-sandbox's proxy) or off.
	Network string `toml:"network"`
	// AllowDomains lists the names reachable when Network is allow:
	// "example.com" is that name only, "*.example.com" any name below it.
	AllowDomains []string `toml:"allow_domains"`
	// DenyDomains removes names from AllowDomains (the same patterns);
	// it is how a project file narrows the list.
	DenyDomains []string `toml:"deny_domains"`
	// AllowAddresses lists addresses (IP, prefix, or IP:port) an allowed
	// name may resolve to although they are loopback, private,
	// link-local or the host's own. Only the user's file may set it.
	AllowAddresses []string `toml:"allow_addresses"`
	// AllowPorts are the ports, beyond 80 and 443, that allowed names
	// may be reached on. Only the user's file may set it.
	AllowPorts []int `toml:"allow_ports"`
	// HostPorts are ports of the host's loopback forwarded into the
	// command sandbox under network = "open" (a local package registry,
	// a database): 127.0.0.1:PORT inside is the host's; no other host
	// loopback service is reachable (docs/egress.md "Grants under
	// open"). Only the user's file may set it.
	HostPorts []int `toml:"host_ports"`
	// UpstreamProxy is the proxy the egress proxy chains to
	// (http://[user:password@]host:port), "none" for none; unset, the
	// host's own HTTPS_PROXY is used. Only the user's file may set it.
	UpstreamProxy string `toml:"upstream_proxy"`
	// Lists are the mount lists (system, etc, read, write, deny, tools,
	// caches, shared_caches, protect), declared once in the sandbox
	// package. A project file may add to protect and deny only;
	// shared_caches is the user's file's alone: what the sandbox writes
	// there, the host may run later.
	sandbox.Lists
	// Unprotect removes entries from Protect. Only the user's file may
	// set it.
	Unprotect []string `toml:"unprotect"`
	// Env lists the environment variables (globs) a sandboxed command
	// sees; every other variable is dropped.
	Env []string `toml:"env"`
	// SecretEnv lists globs of names that look like secrets: they are
	// dropped even when a glob in Env allows them, unless Env names them
	// exactly.
	SecretEnv []string `toml:"secret_env"`
}

// Agent is the part of the policy for the agent ring, the mount
// namespace around the agent process itself.
type Agent struct {
	// Write lists extra host paths the agent itself may write (may start
	// with ~/), for example an MCP server's data. Only the user's file
	// may set it.
	Write []string `toml:"write"`
	// Read lists extra host paths the agent itself may read (may start
	// with ~/): the ring shows nothing of the home but the agent's own
	// state, git identity, tools and caches. Only the user's file may
	// set it.
	Read []string `toml:"read"`
	// Env lists environment variables (globs) the agent keeps although
	// sandbox.secret_env or the ring's host-IPC list would drop them
	// (SSH_AUTH_SOCK, DISPLAY, a token an MCP server needs). Only the
	// user's file may set it.
	Env []string `toml:"env"`
	// AllowDomains are names (the patterns of sandbox.allow_domains)
	// the agent itself may reach through its own proxy, besides its
	// provider hosts (docs/ring.md "The network"). They never widen
	// what commands reach. Only the user's file may set it.
	AllowDomains []string `toml:"allow_domains"`
	// HostPorts are ports of the host's loopback forwarded into the
	// ring (a local model server, an MCP server over HTTP): each is
	// reachable at 127.0.0.1:PORT inside; no other host service is.
	// Only the user's file may set it.
	HostPorts []int `toml:"host_ports"`
}

// Shell holds the validator's structural settings: what it does with
// constructs that are not a single rule's business.
type Shell struct {
	// MaxDepth bounds how deep sh -c, eval and wrappers are unwrapped.
	MaxDepth int `toml:"max_depth"`
	// DenyEnv lists environment variable names (globs) whose assignment
	// is denied because they make programs run other code.
	DenyEnv []string `toml:"deny_env"`
}

// Rule is one validator rule. A rule matches a simple command (after
// unwrapping wrappers) when every field that is set matches.
type Rule struct {
	// ID is stable and unique, for example "git.push.force".
	ID string `toml:"id"`
	// Decision is allow, ask or deny.
	Decision string `toml:"decision"`
	// Command is a glob on the base name of argv[0].
	Command string `toml:"command"`
	// Sub lists alternatives for the first positional argument (after the
	// command's known global options), for example ["push"] for git.
	Sub []string `toml:"sub"`
	// Flags: the rule matches only if any of these is present. A short
	// flag such as "-f" also matches inside a cluster such as "-fd". The
	// form "-c=core.hooksPath*" matches flag -c whose value matches the
	// glob (case-insensitive), whether written "-c v" or "-c=v".
	Flags []string `toml:"flags"`
	// NotFlags: the rule does not match if any of these is present.
	NotFlags []string `toml:"not_flags"`
	// Args: the rule matches only if a positional argument after Sub
	// matches one of these globs (case-insensitive).
	Args []string `toml:"args"`
	// Paths: the rule matches only if a positional argument names one of
	// these paths or a directory that contains one ("~" is the user's
	// home, "${workspace}" the workspace). An argument the validator
	// cannot resolve counts as a match (fail closed).
	Paths []string `toml:"paths"`
	// Reason says, for the model, why the rule exists.
	Reason string `toml:"reason"`
	// Hint says what to do instead.
	Hint string `toml:"hint"`
	// Match and NotMatch are example commands checked when the policy
	// loads: each Match must trigger this rule, no NotMatch may.
	Match    []string `toml:"match"`
	NotMatch []string `toml:"not_match"`
	// Origin is where the rule was written: set by Load, never read
	// from a file (errors name it; examples are judged by it).
	Origin Origin `toml:"-"`
}

// Layer is a policy layer, lowest first.
type Layer int

// The layers of a loaded policy.
const (
	LayerDefault Layer = iota // the embedded default.toml
	LayerUser                 // the user's file
	LayerProject              // the project's .lite-sandbox.toml
)

// Origin says where a rule was written: its file, the position of its id
// and its layer. A rule may tighten a rule of a lower layer (a stricter
// rule on the same command), so its examples are judged knowing which
// rule came from where (docs/configuration.md, "Replacing and tightening
// a rule").
type Origin struct {
	File      string
	Line, Col int
	Layer     Layer
}

// String is "file:line:col" (or just the file when the line is unknown).
func (o Origin) String() string {
	if o.Line > 0 {
		return fmt.Sprintf("%s:%d:%d", o.File, o.Line, o.Col)
	}
	return o.File
}

// Mode says what happens when no OS sandbox backend is available; the
// sandbox package owns the type.
type Mode = sandbox.Mode

// The sandbox modes.
const (
	ModeAuto = sandbox.ModeAuto
	ModeOn   = sandbox.ModeOn
	ModeOff  = sandbox.ModeOff
)

// ParseMode checks a mode name.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case ModeAuto, ModeOn, ModeOff:
		return m, nil
	}
	return "", fmt.Errorf("unknown sandbox mode %q (want auto, on or off)", s)
}

// Network modes.
const (
	NetworkOpen  = sandbox.NetworkOpen
	NetworkHost  = sandbox.NetworkHost
	NetworkAllow = sandbox.NetworkAllow
	NetworkOff   = sandbox.NetworkOff
)

// Decisions, from the weakest to the strictest.
const (
	Allow = "allow"
	Ask   = "ask"
	Deny  = "deny"
)

// strictness orders modes and decisions so that layering can tell a
// tightening from a loosening.
func modeStrictness(m string) int {
	switch Mode(m) {
	case ModeOff:
		return 0
	case ModeAuto:
		return 1
	case ModeOn:
		return 2
	}
	return -1
}

// Asks reports whether any rule asks a person (docs/validator.md §8).
func (p *Policy) Asks() bool {
	if p == nil {
		return false
	}
	for _, r := range p.Rules {
		if r.Decision == Ask {
			return true
		}
	}
	return false
}

// DecisionRank orders decisions: allow < ask < deny.
func DecisionRank(d string) int {
	switch d {
	case Allow:
		return 0
	case Ask:
		return 1
	case Deny:
		return 2
	}
	return -1
}

// Clone returns a deep copy, so that callers can adjust a policy (for a
// command-line flag) without changing the one they were given.
func (p *Policy) Clone() *Policy {
	c := *p
	c.Sandbox.System = slices.Clone(p.Sandbox.System)
	c.Sandbox.Etc = slices.Clone(p.Sandbox.Etc)
	c.Sandbox.Read = slices.Clone(p.Sandbox.Read)
	c.Sandbox.Write = slices.Clone(p.Sandbox.Write)
	c.Sandbox.Deny = slices.Clone(p.Sandbox.Deny)
	c.Sandbox.Protect = slices.Clone(p.Sandbox.Protect)
	c.Sandbox.Unprotect = slices.Clone(p.Sandbox.Unprotect)
	c.Sandbox.Tools = slices.Clone(p.Sandbox.Tools)
	c.Sandbox.Caches = slices.Clone(p.Sandbox.Caches)
	c.Sandbox.SharedCaches = slices.Clone(p.Sandbox.SharedCaches)
	c.Sandbox.Env = slices.Clone(p.Sandbox.Env)
	c.Sandbox.SecretEnv = slices.Clone(p.Sandbox.SecretEnv)
	c.Sandbox.AllowDomains = slices.Clone(p.Sandbox.AllowDomains)
	c.Sandbox.DenyDomains = slices.Clone(p.Sandbox.DenyDomains)
	c.Sandbox.AllowAddresses = slices.Clone(p.Sandbox.AllowAddresses)
	c.Sandbox.AllowPorts = slices.Clone(p.Sandbox.AllowPorts)
	c.Sandbox.HostPorts = slices.Clone(p.Sandbox.HostPorts)
	c.Shell.DenyEnv = slices.Clone(p.Shell.DenyEnv)
	c.Agent.Write = slices.Clone(p.Agent.Write)
	c.Agent.Read = slices.Clone(p.Agent.Read)
	c.Agent.Env = slices.Clone(p.Agent.Env)
	c.Agent.AllowDomains = slices.Clone(p.Agent.AllowDomains)
	c.Agent.HostPorts = slices.Clone(p.Agent.HostPorts)
	c.Sources = slices.Clone(p.Sources)
	c.Rules = make([]Rule, len(p.Rules))
	for i, r := range p.Rules {
		r.Sub = slices.Clone(r.Sub)
		r.Flags = slices.Clone(r.Flags)
		r.NotFlags = slices.Clone(r.NotFlags)
		r.Args = slices.Clone(r.Args)
		r.Paths = slices.Clone(r.Paths)
		r.Match = slices.Clone(r.Match)
		r.NotMatch = slices.Clone(r.NotMatch)
		c.Rules[i] = r
	}
	return &c
}
