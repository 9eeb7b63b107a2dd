// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRingClosingLine (#27): when a session ends, one line names the
// destinations the agent's proxy refused during it, read from its
// ring-egress.jsonl, through the real launcher (launch exec, the probe
// in the ring), as root and as nobody: a host port not granted is
// named, the granted one (reached through the same proxy, the control
// that the probe ran and the proxy answered) is not; a session with no
// refusal prints no such line.
func TestRingClosingLine(t *testing.T) {
	t.Parallel()
	users(t, func(t *testing.T, e *env) {
		granted := startTCP(t, "127.0.0.1:0")
		other := startTCP(t, "127.0.0.1:0")
		_, gp, _ := net.SplitHostPort(granted.addr)
		e.write("~/.config/lite-sandbox/config.toml", "[agent]\nhost_ports = ["+gp+"]\n")
		cfg := "LITE_SANDBOX_CONFIG=" + e.abs("~/.config/lite-sandbox/config.toml")
		const line = "the agent's proxy refused "

		f, errs := e.ringProbeStderr(map[string]string{"proxy": "127.0.0.1:3128", "connect": granted.addr + " " + other.addr}, cfg)
		expectRing(t, "ring", f, map[string]string{"connect:" + granted.addr: "yes", "connect:" + other.addr: "no: 403"})
		i := strings.Index(errs, line)
		if i < 0 {
			t.Fatalf("no closing line naming the refusal:\n%s", errs)
		}
		got, _, _ := strings.Cut(errs[i:], "\n")
		if !strings.Contains(got, other.addr) || strings.Contains(got, granted.addr) || !strings.Contains(got, "agent.host_ports") {
			t.Errorf("closing line: want %s named (and the key), %s not:\n%s", other.addr, granted.addr, got)
		}

		f, errs = e.ringProbeStderr(map[string]string{"proxy": "127.0.0.1:3128", "connect": granted.addr}, cfg)
		expectRing(t, "ring, nothing refused", f, map[string]string{"connect:" + granted.addr: "yes"})
		if strings.Contains(errs, line) {
			t.Errorf("a closing line although nothing was refused:\n%s", errs)
		}
	})
}

// ringProbeStderr runs the net probe in the ring (launch exec) and
// returns its findings and the launcher's stderr.
func (e *env) ringProbeStderr(args map[string]string, extra ...string) (map[string]string, string) {
	e.t.Helper()
	out := filepath.Join(e.ws, ".probe-close.json")
	os.Remove(out)
	b, _ := json.Marshal(probeSpec{Mode: "net", Out: out, Args: args})
	vars := append([]string{escapeProbeEnv + "=" + string(b)}, extra...)
	stdout, stderr, code := e.launch("exec", vars, probeBinary)
	if code != 0 {
		e.t.Fatalf("probe in the ring: exit %d\n%s\n%s", code, stdout, stderr)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		e.t.Fatalf("the probe wrote no findings: %v\n%s", err, stderr)
	}
	f := map[string]string{}
	if err := json.Unmarshal(raw, &f); err != nil {
		e.t.Fatal(err)
	}
	return f, stderr
}
