// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
	"github.com/lite-sandbox/lite-sandbox/shims/audit"
	"github.com/lite-sandbox/lite-sandbox/shims/explain"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// egressState is the per-command proxy's record of its decisions.
type egressState struct {
	mu         sync.Mutex
	decisions  []egress.Decision
	bridgeDown bool // the sandbox's bridge is gone (egress.Proxy.OnBridge)
}

// testResolver, when set by a test of this package, replaces DNS.
var testResolver egress.Resolver

// egressDirPrefix names the per-command proxy's socket directories in
// the temp dir: lite-sandbox-egress-PID-RANDOM, so that the next shim
// can remove those of a shim that was killed (SIGKILL runs no cleanup).
const egressDirPrefix = "lite-sandbox-egress-"

// egressEnv is every per-command addition to a sandboxed command's
// environment for network = "allow": the proxy variables, carrying this
// command's identifier (sandbox/egress ident.go) so that the
// explanation after a failure names this command's refusals, not those
// of a command running beside it in the session.
func (s *Shim) egressEnv(env []string) []string {
	if s.Policy.Sandbox.Network != policy.NetworkAllow {
		return env
	}
	if s.egressID == "" {
		s.egressID = egress.NewCommandID()
	}
	return egress.Env(env, s.egressID)
}

// startEgress starts this command's proxy in the shim process, on a
// socket in a fresh private directory, and returns the socket's path and
// a stop function. It lives as long as the command: the shim waits for
// bwrap anyway.
func (s *Shim) startEgress() (string, func(), error) {
	if runtime.GOOS != "linux" {
		return "", nil, errors.New(`network = "allow" needs Linux (a network namespace for the sandbox)`)
	}
	p, err := s.Policy.EgressProxy(os.Getenv)
	if err != nil {
		return "", nil, err
	}
	removeStaleEgressDirs(os.TempDir())
	dir, err := os.MkdirTemp("", egressDirPrefix+strconv.Itoa(os.Getpid())+"-")
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
	p.Resolver = testResolver
	logPath := s.egressLogPath()
	var warn sync.Once
	p.Record = func(d egress.Decision) {
		st.mu.Lock()
		st.decisions = append(st.decisions, d)
		st.mu.Unlock()
		if logPath != "" {
			if line, err := egress.Marshal(d); err == nil {
				if err := audit.AppendRotated(logPath, line, egress.LogMaxBytes, egress.LogKeep); err != nil {
					warn.Do(func() { esc.Fprintf(s.stderr, "lite-sandbox: warning: egress log: %v\n", err) })
				}
			}
		}
		if seen.First(d) {
			s.auditEgress(d)
		}
	}
	p.OnBridge = func(up bool) { st.mu.Lock(); st.bridgeDown = !up; st.mu.Unlock() }
	go p.Serve(l)
	return sock, func() { l.Close(); os.RemoveAll(dir) }, nil
}

// sandboxExe is the binary the sandbox starts the command through: the
// smaller shim binary, which confines as well and starts faster
// (docs/performance.md), when small; the egress bridge and the
// host-port forward need lite-sandbox itself.
func sandboxExe(small bool) (string, error) {
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err == nil && small {
		exe = contract.FindShimBinary(exe)
	}
	return exe, err
}

// startSockets starts the command's proxy under network = "allow", or
// its sandbox.host_ports proxy under open (hostPorts), binds its socket
// into spec and names it in env; stop ends it.
func (s *Shim) startSockets(spec *sandbox.Spec, env []string, hostPorts bool) ([]string, func(), error) {
	switch {
	case spec.Network == policy.NetworkAllow:
		sock, stop, err := s.startEgress()
		if err != nil {
			return nil, nil, err
		}
		spec.Read = append(spec.Read, sock)
		return append(env, egress.EnvSocket+"="+sock), stop, nil
	case hostPorts:
		sock, stop, err := s.startHostPorts()
		if err != nil {
			return nil, nil, err
		}
		spec.Read = append(spec.Read, sock)
		return egress.HostPortsEnv(env, sock, s.Policy.Sandbox.HostPorts), stop, nil
	}
	return env, func() {}, nil
}

// hostPortsOn says whether the command's sandbox forwards
// sandbox.host_ports: under network = "open" with its own namespace
// (with no user-space stack it shares the host's network, where the
// ports are reachable anyway; docs/egress.md "Grants under open").
func (s *Shim) hostPortsOn(spec sandbox.Spec) bool {
	if spec.Network != policy.NetworkOpen || len(s.Policy.Sandbox.HostPorts) == 0 || runtime.GOOS != "linux" {
		return false
	}
	p, _ := sandbox.UserNet()
	return p != ""
}

// openNet is what network = "open" keeps out of this command's sandbox,
// for the explanation after a failure (explain.OpenNet), or nil when
// the command shares the host's network.
func (s *Shim) openNet() *explain.OpenNet {
	if s.Policy.Sandbox.Network != policy.NetworkOpen || runtime.GOOS != "linux" {
		return nil
	}
	if p, _ := sandbox.UserNet(); p == "" {
		return nil
	}
	o := &explain.OpenNet{HostAddrs: explain.HostNetworks(), HostPorts: s.Policy.Sandbox.HostPorts, Lookup: explain.HostLookup}
	if spec, err := s.spec(); err == nil {
		o.Exempt = spec.Exempt
	}
	return o
}

// startHostPorts serves sandbox.host_ports for this command, on a
// socket in a fresh private directory (as startEgress), and returns the
// socket's path and a stop function.
func (s *Shim) startHostPorts() (string, func(), error) {
	removeStaleEgressDirs(os.TempDir())
	dir, err := os.MkdirTemp("", egressDirPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", nil, fmt.Errorf("host ports: %w", err)
	}
	sock := filepath.Join(dir, egress.SocketName)
	stop, err := egress.ServeHostPorts(sock, s.Policy.Sandbox.HostPorts, nil)
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	return sock, func() { stop(); os.RemoveAll(dir) }, nil
}

// egressLogPath is where the per-command proxy (`run`, a shim outside a
// session) records every connection: egress.jsonl in the audit log's
// directory (XDG_STATE_HOME/lite-sandbox), the same records and
// rotation as a session's (docs/egress.md "The audit"), or "" when the
// audit log is off (LITE_SANDBOX_NO_AUDIT=1) or has no directory.
func (s *Shim) egressLogPath() string {
	dir, off, err := s.auditDir()
	if off || err != nil || os.MkdirAll(dir, 0o700) != nil {
		return ""
	}
	return filepath.Join(dir, egress.LogName)
}

// removeStaleEgressDirs removes the socket directories of shims that are
// gone (their PID no longer exists). A reused PID keeps its directory
// until a later run; a directory of another user is never touched.
func removeStaleEgressDirs(tmp string) { removeStaleDirs(tmp, egressDirPrefix) }

// removeStaleDirs removes the directories named prefix<PID>- of shims
// that are gone.
func removeStaleDirs(tmp, prefix string) {
	ents, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.IsDir() {
			continue
		}
		ps, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(ps)
		if err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		if ownedAndGone(fi, pid) {
			os.RemoveAll(filepath.Join(tmp, e.Name()))
		}
	}
}

// egressLines explains, after a failed command, its refusals by the
// per-command proxy, or, in a session, those the session's proxy
// recorded under this command's identifier (egress.Explain).
func (s *Shim) egressLines() []string {
	if s.Policy.Sandbox.Network != policy.NetworkAllow {
		return nil
	}
	var a egress.Activity
	switch {
	case s.egress != nil:
		s.egress.mu.Lock()
		a = egress.ActivityOf(s.egress.decisions, s.egressID, s.v.start)
		a.BridgeDown = s.egress.bridgeDown
		s.egress.mu.Unlock()
	case s.recent != nil:
		// The judge runs in the launcher, which serves the session's
		// proxy: its decisions, and whether it was stopped meanwhile,
		// are in memory (#29).
		a = s.recent.Activity(s.egressID, s.v.start)
	}
	return egress.Explain(a, s.v.command, 2)
}

// auditEgress writes one proxy decision to the audit log.
func (s *Shim) auditEgress(d egress.Decision) {
	dir, off, err := s.auditDir()
	if off {
		return
	}
	if err == nil {
		err = audit.Append(dir, audit.EgressRecord(audit.Egress{Time: d.Time, Workspace: s.Workspace, CommandID: d.Command,
			Via: d.Via, HostPort: egress.HostPort(d.Host, d.Port), Addr: d.Addr, Result: d.Result, Key: d.Key}))
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		esc.Fprintf(s.stderr, "lite-sandbox: warning: %v\n", err)
	}
}
