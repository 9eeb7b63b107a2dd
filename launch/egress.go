// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/lite-sandbox/lite-sandbox/launch/contract"
	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
	"github.com/lite-sandbox/lite-sandbox/shims/audit"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// sessionEgressResolver, when set (tests, through export_test.go),
// replaces DNS for the proxies of sessions opened afterwards.
var sessionEgressResolver egress.Resolver

// SessionEgress returns the [Options.Egress] of a session with network
// = "allow": the launcher's proxy, on egress.sock in the session
// directory, recording every decision in the session's egress.jsonl (for
// the shims' explanations) and in the audit log.
func SessionEgress(p *policy.Policy, workspace string) (func(dir string) (string, func(), error), error) {
	rules, err := egress.NewRules(p.Sandbox.AllowDomains, p.Sandbox.DenyDomains, p.Sandbox.AllowAddresses)
	if err != nil {
		return nil, fmt.Errorf("policy: %w", err)
	}
	res := sessionEgressResolver
	return func(dir string) (string, func(), error) {
		sock := filepath.Join(dir, egress.SocketName)
		l, err := egress.Listen(sock)
		if err != nil {
			return "", nil, err
		}
		logPath := filepath.Join(dir, egress.LogName)
		session := filepath.Base(dir)
		auditDir, auditErr := audit.Dir(os.Getenv)
		noAudit := os.Getenv(contract.EnvNoAudit) == "1" || auditErr != nil
		px := egress.New(rules)
		px.Resolver = res
		seen := egress.NewDedup()
		px.Record = func(d egress.Decision) {
			if !d.Allowed {
				// Only refusals: the shims explain from this file, and
				// a long session's allowed connections would make it
				// grow without bound.
				egress.AppendLog(logPath, d)
			}
			if !noAudit && seen.First(d) {
				audit.Append(auditDir, audit.EgressRecord(d.Time, workspace, session, d.Via, egress.HostPort(d.Host, d.Port), d.Allowed, d.Key))
			}
		}
		go px.Serve(l)
		return sock, func() { l.Close() }, nil
	}, nil
}
