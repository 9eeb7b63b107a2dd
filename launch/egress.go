// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
	"github.com/lite-sandbox/lite-sandbox/shims/audit"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// sessionEgressResolver, when set (tests, through export_test.go),
// replaces DNS for the proxies of sessions opened afterwards.
var sessionEgressResolver egress.Resolver

// SessionEgress returns the [Options.Egress] of a session with network
// = "allow": the launcher's proxy, on egress.sock in the session
// directory, recording every connection in the session's egress.jsonl
// (rotated like the audit log, for the person) and in recent, which the
// session's judge, in this process, explains a failed command from
// (#29), and the first of each command, result and destination in the
// audit log. recent also learns when this process was continued after
// a stop (^Z, SIGSTOP), which cut the connections of commands that ran
// meanwhile. The upstream proxy is the policy's, or the launcher's own
// HTTPS_PROXY (the host side's environment, never the sandbox's).
func SessionEgress(p *policy.Policy, workspace string, recent *egress.Recent) (func(dir string) (string, func(), error), error) {
	if _, err := p.EgressProxy(os.Getenv); err != nil {
		return nil, err
	}
	res := sessionEgressResolver
	return func(dir string) (string, func(), error) {
		px, err := p.EgressProxy(os.Getenv)
		if err != nil {
			return "", nil, err
		}
		sock := filepath.Join(dir, egress.SocketName)
		l, err := egress.Listen(sock)
		if err != nil {
			return "", nil, err
		}
		logPath := filepath.Join(dir, egress.LogName)
		session := filepath.Base(dir)
		auditDir, auditErr := audit.Dir(os.Getenv)
		noAudit := os.Getenv(contract.EnvNoAudit) == "1" || auditErr != nil
		px.Resolver = res
		seen := egress.NewDedup()
		var warn sync.Once
		px.Record = func(d egress.Decision) {
			recent.Add(d)
			if line, err := egress.Marshal(d); err == nil {
				if err := audit.AppendRotated(logPath, line, egress.LogMaxBytes, egress.LogKeep); err != nil {
					warn.Do(func() { fmt.Fprintf(os.Stderr, "lite-sandbox: warning: egress log: %v\n", err) })
				}
			}
			if !noAudit && seen.First(d) {
				audit.Append(auditDir, audit.EgressRecord(audit.Egress{Time: d.Time, Workspace: workspace, Session: session,
					CommandID: d.Command, Via: d.Via, HostPort: egress.HostPort(d.Host, d.Port), Addr: d.Addr, Result: d.Result, Key: d.Key}))
			}
		}
		px.OnBridge = func(up bool) { egress.MarkBridge(dir, up); recent.SetBridge(up) }
		go px.Serve(l)
		stopWatch := watchContinued(recent)
		return sock, func() { l.Close(); stopWatch() }, nil
	}, nil
}

// HostPortsSocketName is the session's sandbox.host_ports proxy socket,
// in the session directory (no longer than egress.sock).
const HostPortsSocketName = "ports.sock"

// sessionHostPorts are the [Options.HostPorts] of a session: the
// policy's sandbox.host_ports when its commands have a network
// namespace of their own under open (sharing the host's network, they
// reach the ports anyway).
func sessionHostPorts(p *policy.Policy, spec sandbox.Spec) []int {
	if spec.Network != sandbox.NetworkOpen || len(p.Sandbox.HostPorts) == 0 {
		return nil
	}
	if path, _ := sandbox.UserNet(); path == "" {
		return nil
	}
	return slices.Clone(p.Sandbox.HostPorts)
}

// hostPortsEgress is the [Options.Egress] and [Options.EgressEnv] of a
// session forwarding sandbox.host_ports under open: a proxy on
// ports.sock that reaches those ports of the host's loopback alone.
func hostPortsEgress(ports []int) (func(dir string) (string, func(), error), []string) {
	return func(dir string) (string, func(), error) {
		sock := filepath.Join(dir, HostPortsSocketName)
		stop, err := egress.ServeHostPorts(sock, ports, nil)
		return sock, stop, err
	}, egress.ForwardOnlyEnv(ports)
}
