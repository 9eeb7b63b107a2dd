// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
	"github.com/lite-sandbox/lite-sandbox/shims/audit"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// Rules compiles the policy's egress rules.
func Rules(p *policy.Policy) (*egress.Rules, error) {
	r, err := egress.NewRules(p.Sandbox.AllowDomains, p.Sandbox.DenyDomains, p.Sandbox.AllowAddresses)
	if err != nil {
		return nil, fmt.Errorf("policy: %w", err)
	}
	return r, nil
}

// egressState is the per-command proxy's record of its decisions.
type egressState struct {
	mu        sync.Mutex
	decisions []egress.Decision
}

// testResolver, when set by a test of this package, replaces DNS.
var testResolver egress.Resolver

// startEgress starts this command's proxy in the shim process, on a
// socket in a fresh private directory, and returns the socket's path and
// a stop function. It lives as long as the command: the shim waits for
// bwrap anyway.
func (s *Shim) startEgress() (string, func(), error) {
	if runtime.GOOS != "linux" {
		return "", nil, errors.New(`network = "allow" needs Linux (a network namespace for the sandbox)`)
	}
	rules, err := Rules(s.Policy)
	if err != nil {
		return "", nil, err
	}
	dir, err := os.MkdirTemp("", "lite-sandbox-egress-")
	if err != nil {
		return "", nil, fmt.Errorf("egress proxy: %w", err)
	}
	sock := filepath.Join(dir, egress.SocketName)
	l, err := egress.Listen(sock)
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	st := &egressState{}
	seen := egress.NewDedup()
	s.egress = st
	p := egress.New(rules)
	p.Resolver = testResolver
	p.Record = func(d egress.Decision) {
		st.mu.Lock()
		st.decisions = append(st.decisions, d)
		st.mu.Unlock()
		if seen.First(d) {
			s.auditEgress(d)
		}
	}
	go p.Serve(l)
	return sock, func() { l.Close(); os.RemoveAll(dir) }, nil
}

// egressLines explains the refusals of this command's proxy (or, in a
// session, of the session's proxy since the command started), and git
// over ssh.
func (s *Shim) egressLines() []string {
	if s.Policy.Sandbox.Network != policy.NetworkAllow {
		return nil
	}
	var refused []egress.Decision
	switch {
	case s.egress != nil:
		s.egress.mu.Lock()
		refused = egress.Since(s.egress.decisions, s.start)
		s.egress.mu.Unlock()
	case s.session != nil:
		refused = egress.Refusals(filepath.Join(s.session.Dir, egress.LogName), s.start)
	}
	out := egress.Explain(refused, 2)
	if len(out) == 0 && usesSSH(s.judged) {
		out = append(out, `lite-sandbox: git over ssh and ssh are not available with sandbox.network = "allow" (only HTTP(S) and SOCKS5 pass the proxy); use an https:// remote (git -c url."https://github.com/".insteadOf=git@github.com: ...)`)
	}
	return out
}

// usesSSH tells whether a command line likely needed ssh: an scp-like or
// ssh:// git URL, or ssh itself.
func usesSSH(cmd string) bool {
	for _, f := range strings.Fields(cmd) {
		f = strings.Trim(f, `'"`)
		switch {
		case f == "ssh" || f == "scp" || f == "sftp" || strings.HasSuffix(f, "/ssh"):
			return true
		case strings.HasPrefix(f, "ssh://") || strings.HasPrefix(f, "git+ssh://"):
			return true
		case strings.Contains(f, "@") && strings.Contains(f, ":") && !strings.Contains(f, "://"):
			return true
		}
	}
	// A configured ssh remote (git push) is not visible here; git prints
	// the hint itself through GIT_SSH_COMMAND (egress.Env).
	return false
}

// auditEgress writes one proxy decision to the audit log.
func (s *Shim) auditEgress(d egress.Decision) {
	dir, off, err := s.auditDir()
	if off {
		return
	}
	if err == nil {
		err = audit.Append(dir, audit.EgressRecord(d.Time, s.Workspace, "", d.Via, egress.HostPort(d.Host, d.Port), d.Allowed, d.Key))
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(s.stderr, "lite-sandbox: warning: %v\n", err)
	}
}
