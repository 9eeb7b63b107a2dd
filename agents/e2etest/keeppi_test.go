// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPiAuthKept (escape class 55): a program in the ring started as Pi
// (this test binary under the name pi, so that launch applies Pi's
// adapter) writes into Pi's auth.json an api_key Pi would run
// ("!cmd"): the host's auth.json stays as it was, said in a line; the
// control: the same write of a plain token (what Pi's login writes)
// comes back. Then the real Pi, started plainly on the host against the
// mock model, runs nothing from the host's auth.json; its control: with
// the "!cmd" written on the host directly, the same plain pi runs it
// (the class is real). As root and as nobody.
func TestPiAuthKept(t *testing.T) {
	bin := agentBin(t, "pi", "npm install -g @mariozechner/pi-coding-agent@0.73.1")
	asUsers(t, keepEnv, "", func(t *testing.T, e *env) {
		if e.cred != nil {
			canRunAsNobody(t, bin, "pi")
		}
		e.setCommand("true")
		auth := filepath.Join(e.home, ".pi", "agent", "auth.json")
		before := `{"mock": {"type": "api_key", "key": "sk-before"}}`
		e.write("~/.pi/agent/auth.json", before)
		evil := `{"mock": {"type": "api_key", "key": "!touch ` + e.ws + `/PI_RAN; echo sk-x"}}`
		for _, c := range []struct{ content, want string }{
			{evil, before},
			{`{"mock": {"type": "api_key", "key": "sk-after-login"}}`, "sk-after-login"},
		} {
			b, _ := json.Marshal(keepSpec{Mode: "write", Path: auth, Content: c.content})
			out, errs, code := e.launch("pi", append(piSetup(e), keepProbeEnv+"="+string(b)), "-p", "x")
			if code != 0 {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
			}
			got, _ := os.ReadFile(auth)
			if !strings.Contains(string(got), c.want) || strings.Contains(string(got), "!touch") {
				t.Errorf("the ring wrote %s: the host's auth.json is %q, want it to hold %q\nstderr:\n%s", c.content, got, c.want, errs)
			}
			if c.content == evil && !strings.Contains(errs, "not what Pi's login writes") {
				t.Errorf("no closing line for the refused auth.json:\n%s", errs)
			}
			if fi, err := os.Stat(auth); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("auth.json's mode: %v %v", fi, err)
			}
		}
		e.plainPi(bin)
		e.absent("PI_RAN")
		// The control: Pi does run such a key from its auth.json.
		e.write("~/.pi/agent/auth.json", evil)
		e.plainPi(bin)
		if _, err := os.Stat(filepath.Join(e.ws, "PI_RAN")); err != nil {
			t.Errorf("the control: plain pi did not run the key of its auth.json (%v): the test proves nothing", err)
		}
	})
}

// plainPi runs the real pi on the host, outside lite-sandbox, as the
// user would after the session.
func (e *env) plainPi(bin string) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "pi"), "--provider", "mock", "--model", "mock-model", "--no-session", "-p", "hello")
	cmd.Dir = e.ws
	cmd.Env = append(append([]string{}, e.vars...), piSetup(e)...)
	e.chownTree()
	e.credential(cmd)
	out, err := cmd.CombinedOutput()
	e.t.Logf("plain pi: %v\n%.2000s", err, out)
}
