// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestOpenNetworkExplained (#27): under network = "open", through the
// real lite-sandbox run and a session command, as root and as nobody, a
// command whose connection to the host's neighbourhood was refused (the
// host's loopback, the stack's gateway to it, a LAN host, the metadata
// address: the servers of opennet_test.go's hood, which the bare
// control reaches) gets one line after it naming the destination and
// the key that grants it (sandbox.host_ports, sandbox.allow_addresses,
// network = "host"). The control: a command that reached the test
// "internet" host and then failed gets no such line.
func TestOpenNetworkExplained(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	if os.Getuid() != 0 {
		t.Skip("the test makes its network namespaces as root")
	}
	for _, p := range []string{"slirp4netns", "ip", "unshare", "nsenter", "curl"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed (scripts/deps installs slirp4netns)", p)
		}
	}
	h := newHood(t)
	h.servers(t)
	refused := []struct {
		url  string
		want []string
	}{
		{"http://169.254.169.254/", []string{"169.254.169.254", "metadata", `sandbox.allow_addresses = ["169.254.169.254"]`, `network = "host"`}},
		{"http://127.0.0.1:8080/", []string{"127.0.0.1:8080", "own loopback", "sandbox.host_ports = [8080]", `network = "host"`}},
		{"http://10.0.2.2:8080/", []string{"10.0.2.2:8080", "gateway", "sandbox.host_ports = [8080]"}},
		{"http://192.168.50.2/", []string{"192.168.50.2", "LAN", `sandbox.allow_addresses = ["192.168.50.2"]`}},
	}
	users(t, func(t *testing.T, e *env) {
		h.enter(e)
		e.write("probe.sh", probeScript())
		checkBare(t, e) // every destination below answers outside the sandbox
		for _, where := range []string{"run", "session"} {
			for _, r := range refused {
				cmd := "curl -sS -m 20 " + r.url
				out, errs, code := e.openCmd(where, cmd)
				if code == 0 || strings.Contains(out, "REACHED") {
					t.Errorf("%s: %s was reached (exit %d)\n%s", where, r.url, code, out)
				}
				line := neighbourLine(errs)
				for _, w := range r.want {
					if !strings.Contains(line, w) {
						t.Errorf("%s: %s: the line %q lacks %q\nstderr:\n%s", where, cmd, line, w, errs)
					}
				}
			}
			// The control: the internet host answers, then the command
			// fails: no neighbourhood line.
			out, errs, code := e.openCmd(where, "curl -sS -m 20 http://93.184.0.2/lite-sandbox-issue27-dep; exit 3")
			if code != 3 || !strings.Contains(out, `"name":"lite-sandbox-issue27-dep"`) {
				t.Errorf("%s, control: the internet host was not reached: exit %d\n%s\n%s", where, code, out, errs)
			}
			if l := neighbourLine(errs); l != "" {
				t.Errorf("%s, control: a neighbourhood line for the internet host: %q", where, l)
			}
		}
	})
}

// openCmd runs cmd with sh -c through lite-sandbox run or in a session.
func (e *env) openCmd(where, cmd string) (string, string, int) {
	if where == "session" {
		return e.launch("exec", nil, "/bin/sh", "-c", cmd)
	}
	return e.lite(nil, "run", "--sandbox", "on", "--", "/bin/sh", "-c", cmd)
}

// neighbourLine is the explanation line about open's neighbourhood in
// stderr, or "".
func neighbourLine(stderr string) string {
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "lite-sandbox: ") && strings.Contains(l, `network = "open"`) {
			return l
		}
	}
	return ""
}
