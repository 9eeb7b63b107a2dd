// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package policy

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
)

//go:embed default.toml
var defaultTOML []byte

// defaultSource names the embedded default policy in Sources and errors.
const defaultSource = "(built-in default)"

// projectFile is the name of the optional per-project policy file in the
// workspace. It may only tighten the policy.
const projectFile = ".lite-sandbox.toml"

// DefaultTOML returns the embedded default policy text.
func DefaultTOML() []byte { return bytes.Clone(defaultTOML) }

// Default returns the embedded default policy.
func Default() *Policy {
	p := &Policy{}
	if err := p.merge(defaultSource, defaultTOML, LayerDefault); err != nil {
		panic(fmt.Sprintf("bug: embedded default policy: %v", err))
	}
	return p
}

// LoadFrozen reads a policy that Marshal wrote (a session's frozen copy):
// one complete file, taken as it is, with no default beneath it and no
// user or project file above it.
func LoadFrozen(path string, data []byte) (*Policy, error) {
	p := &Policy{}
	if err := p.merge(path, data, LayerUser); err != nil {
		return nil, err
	}
	return p, nil
}

// Options say where Load looks for the user's and the project's files.
type Options struct {
	// UserFile is the user's policy file. When empty, Load uses
	// $LITE_SANDBOX_CONFIG, else $XDG_CONFIG_HOME/lite-sandbox/config.toml
	// (or ~/.config/...), and a missing default file is not an error. A
	// file named here or in the variable must exist.
	UserFile string
	// Workspace, when set, is searched for the project file.
	Workspace string
	// Getenv replaces os.Getenv in tests.
	Getenv func(string) string
}

// fileError reports a problem in one policy file, with its position when
// known. Callers print it as one line: "file:line:col: message".
type fileError struct {
	Path      string
	Line, Col int
	Msg       string
}

func (e *fileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}

// userFilePath returns the user's policy file and whether it was named
// explicitly (so that its absence is an error).
func userFilePath(o Options) (string, bool) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if o.UserFile != "" {
		return o.UserFile, true
	}
	if f := getenv(contract.EnvConfig); f != "" {
		return f, true
	}
	dir := getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home := getenv("HOME")
		if home == "" {
			return "", false
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "lite-sandbox", "config.toml"), false
}

// Load merges the embedded default, the user's file and the project's
// file. Any error means that nothing may run.
func Load(o Options) (*Policy, error) {
	p := Default()
	if path, explicit := userFilePath(o); path != "" {
		if err := p.mergeFile(path, !explicit, false); err != nil {
			return nil, err
		}
	}
	if o.Workspace != "" {
		if err := p.mergeFile(filepath.Join(o.Workspace, projectFile), true, true); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// mergeFile applies one policy file on top of p (a project's may only
// tighten). A missing file is skipped when optional, an error otherwise.
func (p *Policy) mergeFile(path string, optional, project bool) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && optional {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read policy file: %w", err)
	}
	layer := LayerUser
	if project {
		layer = LayerProject
	}
	return p.merge(path, data, layer)
}

// merge decodes one file of the given layer and applies it on top of p.
func (p *Policy) merge(path string, data []byte, layer Layer) error {
	l, err := decode(path, data)
	if err != nil {
		return err
	}
	l.layer = layer
	if err := p.apply(l, layer == LayerProject); err != nil {
		return err
	}
	p.Sources = append(p.Sources, path)
	return nil
}

// layer is one decoded file. Pointers and nil slices tell "not set" from
// "set to the zero value".
type layer struct {
	path  string
	data  []byte
	layer Layer

	Version *int `toml:"version"`
	Sandbox struct {
		Mode    *string `toml:"mode"`
		Network *string `toml:"network"`
		sandbox.Lists
		Unprotect []string `toml:"unprotect"`
		Env       []string `toml:"env"`
		SecretEnv []string `toml:"secret_env"`

		AllowDomains   []string `toml:"allow_domains"`
		DenyDomains    []string `toml:"deny_domains"`
		AllowAddresses []string `toml:"allow_addresses"`
		AllowPorts     []int    `toml:"allow_ports"`
		HostPorts      []int    `toml:"host_ports"`
		UpstreamProxy  *string  `toml:"upstream_proxy"`
	} `toml:"sandbox"`
	Shell struct {
		MaxDepth *int     `toml:"max_depth"`
		DenyEnv  []string `toml:"deny_env"`
	} `toml:"shell"`
	Agent struct {
		Write        []string `toml:"write"`
		Read         []string `toml:"read"`
		Env          []string `toml:"env"`
		AllowDomains []string `toml:"allow_domains"`
		HostPorts    []int    `toml:"host_ports"`
	} `toml:"agent"`
	Rules []Rule `toml:"rule"`
}

func decode(path string, data []byte) (*layer, error) {
	l := &layer{path: path, data: data}
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(l); err != nil {
		var de *toml.DecodeError
		var se *toml.StrictMissingError
		switch {
		case errors.As(err, &se) && len(se.Errors) > 0:
			e := se.Errors[0]
			line, col := e.Position()
			return nil, &fileError{Path: path, Line: line, Col: col,
				Msg: fmt.Sprintf("unknown key %q", strings.Join(e.Key(), "."))}
		case errors.As(err, &de):
			line, col := de.Position()
			return nil, &fileError{Path: path, Line: line, Col: col,
				Msg: strings.TrimPrefix(de.Error(), "toml: ")}
		}
		return nil, &fileError{Path: path, Msg: err.Error()}
	}
	if l.Version != nil && *l.Version != Version {
		return nil, l.errAt(fmt.Sprintf("unsupported policy version %d (this build reads version %d)", *l.Version, Version), "version")
	}
	return l, nil
}

// errAt builds a fileError positioned at the first occurrence of the key
// (best effort: a position helps a person, the message is what matters).
func (l *layer) errAt(msg string, key string, nth ...int) *fileError {
	line, col := locate(l.data, key, nth...)
	return &fileError{Path: l.path, Line: line, Col: col, Msg: msg}
}

// apply merges l into p. Scalars replace, lists append (without
// duplicates), a rule with a known id replaces that rule. A project layer
// may only tighten: anything that would loosen is an error, so a hostile
// repository cannot quietly widen the sandbox.
func (p *Policy) apply(l *layer, project bool) error {
	if l.Version != nil {
		p.Version = *l.Version
	} else if p.Version == 0 {
		p.Version = Version
	}
	loosen := func(key, why string) error {
		return l.errAt(fmt.Sprintf("%s: a project file may only tighten the policy (%s); if you trust this, set it in your own file (--config, or ~/.config/lite-sandbox/config.toml)", key, why), lastKey(key))
	}
	if err := p.applyMode(l, project, loosen); err != nil {
		return err
	}
	if err := p.applyNetwork(l, project, loosen); err != nil {
		return err
	}
	if err := p.applyLists(l, project, loosen); err != nil {
		return err
	}
	if err := p.applyProtect(l, project, loosen); err != nil {
		return err
	}
	if err := p.applySecretEnv(l); err != nil {
		return err
	}
	if err := p.applyShell(l, project, loosen); err != nil {
		return err
	}
	if err := p.applyAgent(l, project); err != nil {
		return err
	}
	return p.applyRules(l, project)
}

// applyMode applies sandbox.mode; a project may only make it stricter.
func (p *Policy) applyMode(l *layer, project bool, loosen func(key, why string) error) error {
	m := l.Sandbox.Mode
	if m == nil {
		return nil
	}
	if _, err := ParseMode(*m); err != nil {
		return l.errAt(err.Error(), "mode")
	}
	if project && modeStrictness(*m) < modeStrictness(p.Sandbox.Mode) {
		return loosen("sandbox.mode", fmt.Sprintf("%q is weaker than %q", *m, p.Sandbox.Mode))
	}
	p.Sandbox.Mode = *m
	return nil
}

// applyLists appends the lists that grant (a project may set none of
// them), then sandbox.deny, which any layer may extend.
func (p *Policy) applyLists(l *layer, project bool, loosen func(key, why string) error) error {
	for _, f := range []struct {
		key string
		src []string
		dst *[]string
	}{
		{"sandbox.system", l.Sandbox.System, &p.Sandbox.System},
		{"sandbox.etc", l.Sandbox.Etc, &p.Sandbox.Etc},
		{"sandbox.read", l.Sandbox.Read, &p.Sandbox.Read},
		{"sandbox.write", l.Sandbox.Write, &p.Sandbox.Write},
		{"sandbox.tools", l.Sandbox.Tools, &p.Sandbox.Tools},
		{"sandbox.caches", l.Sandbox.Caches, &p.Sandbox.Caches},
		{"sandbox.shared_caches", l.Sandbox.SharedCaches, &p.Sandbox.SharedCaches},
		{"sandbox.env", l.Sandbox.Env, &p.Sandbox.Env},
	} {
		if project && len(f.src) > 0 {
			return loosen(f.key, "it would make more of the host visible")
		}
		for i, v := range f.src {
			if err := checkEntry(f.key, v); err != nil {
				return l.errAt(err.Error(), lastKey(f.key), i)
			}
		}
		*f.dst = appendNew(*f.dst, f.src...)
	}
	for _, v := range l.Sandbox.Deny {
		if err := checkPath("sandbox.deny", v); err != nil {
			return l.errAt(err.Error(), "deny")
		}
	}
	p.Sandbox.Deny = appendNew(p.Sandbox.Deny, l.Sandbox.Deny...)
	return nil
}

// applyProtect applies sandbox.protect and sandbox.unprotect. Any layer
// may add a protected path; only the user's file may take one away
// (escape classes 9 to 15: a hostile repository must not unprotect its
// own hooks).
func (p *Policy) applyProtect(l *layer, project bool, loosen func(key, why string) error) error {
	for i, v := range l.Sandbox.Protect {
		if err := checkRelPath("sandbox.protect", v); err != nil {
			return l.errAt(err.Error(), "protect", i)
		}
	}
	p.Sandbox.Protect = appendNew(p.Sandbox.Protect, l.Sandbox.Protect...)
	if len(l.Sandbox.Unprotect) > 0 {
		if project {
			return loosen("sandbox.unprotect", "it would make protected paths writable")
		}
		for i, v := range l.Sandbox.Unprotect {
			if err := checkRelPath("sandbox.unprotect", v); err != nil {
				return l.errAt(err.Error(), "unprotect", i)
			}
		}
		p.Sandbox.Unprotect = appendNew(p.Sandbox.Unprotect, l.Sandbox.Unprotect...)
		p.Sandbox.Protect = slices.DeleteFunc(p.Sandbox.Protect, func(v string) bool {
			return slices.ContainsFunc(l.Sandbox.Unprotect, func(u string) bool { return sameRel(u, v) })
		})
	}
	return nil
}

// applySecretEnv appends sandbox.secret_env, which any layer may extend.
func (p *Policy) applySecretEnv(l *layer) error {
	for _, v := range l.Sandbox.SecretEnv {
		if err := checkEntry("sandbox.secret_env", v); err != nil {
			return l.errAt(err.Error(), "secret_env")
		}
	}
	p.Sandbox.SecretEnv = appendNew(p.Sandbox.SecretEnv, l.Sandbox.SecretEnv...)
	return nil
}

// applyShell applies the [shell] table; a project may only lower
// max_depth.
func (p *Policy) applyShell(l *layer, project bool, loosen func(key, why string) error) error {
	if d := l.Shell.MaxDepth; d != nil {
		if *d < 1 || *d > 64 {
			return l.errAt(fmt.Sprintf("max_depth %d is out of range (1 to 64)", *d), "max_depth")
		}
		if project && p.Shell.MaxDepth != 0 && *d > p.Shell.MaxDepth {
			return loosen("shell.max_depth", "it would raise the limit")
		}
		p.Shell.MaxDepth = *d
	}
	p.Shell.DenyEnv = appendNew(p.Shell.DenyEnv, l.Shell.DenyEnv...)
	return nil
}

// applyRules adds the layer's rules; a rule with a known id replaces that
// rule. A project may only add new ask or deny rules.
func (p *Policy) applyRules(l *layer, project bool) error {
	seen := map[string]bool{}
	for i, r := range l.Rules {
		if err := checkRule(r); err != nil {
			return l.errAt(fmt.Sprintf("rule %d: %v", i+1, err), "id", i)
		}
		if seen[r.ID] {
			return l.errAt(fmt.Sprintf("rule id %q is defined twice in this file", r.ID), "id", i)
		}
		seen[r.ID] = true
		line, col := locate(l.data, "id", i)
		r.Origin = Origin{File: l.path, Line: line, Col: col, Layer: l.layer}
		idx := slices.IndexFunc(p.Rules, func(o Rule) bool { return o.ID == r.ID })
		if project {
			if idx >= 0 {
				return l.errAt(fmt.Sprintf("rule %s: a project file may only tighten the policy (it may not redefine a rule of an outer layer); give the rule a new id, or set it in your own file", r.ID), "id", i)
			}
			if r.Decision == Allow {
				return l.errAt(fmt.Sprintf("rule %s: a project file may only tighten the policy (a project rule may only ask or deny); an allow rule belongs in your own file", r.ID), "id", i)
			}
		}
		if idx >= 0 {
			p.Rules[idx] = r
		} else {
			p.Rules = append(p.Rules, r)
		}
	}
	return nil
}

func checkRule(r Rule) error {
	if r.ID == "" {
		return errors.New("missing id")
	}
	if DecisionRank(r.Decision) < 0 {
		return fmt.Errorf("%s: unknown decision %q (want allow, ask or deny)", r.ID, r.Decision)
	}
	if r.Command == "" {
		return fmt.Errorf("%s: missing command", r.ID)
	}
	if r.Reason == "" {
		return fmt.Errorf("%s: missing reason (the model is told why)", r.ID)
	}
	return nil
}

// sameRel reports whether two workspace-relative protect entries name the
// same path (a trailing "/" only says what kind of placeholder to make).
func sameRel(a, b string) bool {
	return path.Clean(a) == path.Clean(b)
}

func appendNew(dst []string, src ...string) []string {
	for _, s := range src {
		if !slices.Contains(dst, s) {
			dst = append(dst, s)
		}
	}
	return dst
}

func lastKey(k string) string {
	if i := strings.LastIndexAny(k, ". "); i >= 0 {
		return k[i+1:]
	}
	return k
}

// Marshal renders the policy as TOML, for `lite-sandbox policy` and a
// session's frozen policy.toml, which the agent ring and the command
// sandbox can read: the upstream proxy's password is left out (the
// launcher's proxy, which alone chains to it, keeps it in memory; #27).
func (p *Policy) Marshal() ([]byte, error) {
	if p.Sandbox.UpstreamProxy != "" && p.Sandbox.UpstreamProxy != UpstreamNone {
		q := *p
		q.Sandbox.UpstreamProxy = egress.Redact(p.Sandbox.UpstreamProxy)
		p = &q
	}
	var b bytes.Buffer
	for _, s := range p.Sources {
		fmt.Fprintf(&b, "# from %s\n", s)
	}
	enc := toml.NewEncoder(&b).SetIndentTables(false).SetArraysMultiline(false)
	if err := enc.Encode(p); err != nil {
		return nil, fmt.Errorf("encode policy: %w", err)
	}
	return b.Bytes(), nil
}
