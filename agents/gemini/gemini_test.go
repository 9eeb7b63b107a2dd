// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package gemini

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lite-sandbox/lite-sandbox/agents/agentstest"
)

func TestPrepare(t *testing.T) {
	t.Parallel()
	s := agentstest.Session(t, "0.61.0", "--yolo")
	s.Ring = true
	sys := filepath.Join(t.TempDir(), "system.json")
	os.WriteFile(sys, []byte(`{"tools":{"sandbox":"docker","core":["run_shell_command"]},"security":"x"}`), 0o644)
	s.Getenv = func(k string) string {
		return map[string]string{"GEMINI_CLI_SYSTEM_SETTINGS_PATH": sys}[k]
	}
	p, err := prepare(s, true)
	if err != nil {
		t.Fatal(err)
	}
	agentstest.Golden(t, "plan", p)
	// Where Gemini would skip the file (and warn on every start), none.
	if p, err = prepare(s, false); err != nil || len(p.Files) != 0 || slices.ContainsFunc(p.Env, func(v string) bool {
		return strings.HasPrefix(v, "GEMINI_CLI_SYSTEM_SETTINGS_PATH=")
	}) || !slices.Contains(p.Env, "SANDBOX=lite-sandbox") {
		t.Errorf("without a root-owned session directory: %+v, %v", p, err)
	}
}

// TestRootOwned: a directory below a world-writable one (the temp dir)
// never holds the system settings; / does, for root only.
func TestRootOwned(t *testing.T) {
	t.Parallel()
	if rootOwned(filepath.Join(t.TempDir(), "s-1")) {
		t.Error("a directory below the temp dir counts as root-owned")
	}
	if got, want := rootOwned("/nonexistent-lite-sandbox/s-1"), os.Geteuid() == 0; got != want {
		t.Errorf("rootOwned below / = %v, want %v", got, want)
	}
}

// TestPrepareNoRing: without the ring, Gemini's `bash` is found on
// PATH, so the shim's directory goes first.
func TestPrepareNoRing(t *testing.T) {
	t.Parallel()
	s := agentstest.Session(t, "0.61.0")
	s.Getenv = func(k string) string {
		return map[string]string{"PATH": "/usr/bin:/bin", "GEMINI_CLI_SYSTEM_SETTINGS_PATH": "/nonexistent/settings.json"}[k]
	}
	p, err := New().Prepare(s)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(p.Env, "PATH="+filepath.Dir(s.Shim)+":/usr/bin:/bin") {
		t.Errorf("PATH does not start with the shim's directory: %q", p.Env)
	}
}

// TestSystemSettings: Gemini's sandboxes are off whatever the system
// file said, and its other keys stay; a broken file is an error.
func TestSystemSettings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range []struct{ in, err string }{
		{`{"tools":{"sandbox":true,"discoveryCommand":"d"},"security":{"toolSandboxing":true},"model":{"name":"m"}}`, ""},
		{`{"tools":"not an object"}`, ""},
		{`{`, "system.json"},
	} {
		f := filepath.Join(dir, "system.json")
		os.WriteFile(f, []byte(c.in), 0o644)
		b, err := SystemSettings(f)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err = %v, want %q", c.in, err, c.err)
			}
			continue
		}
		var v struct {
			Tools    map[string]any `json:"tools"`
			Security map[string]any `json:"security"`
			Model    map[string]any `json:"model"`
		}
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if v.Tools["sandbox"] != false || v.Security["toolSandboxing"] != false {
			t.Errorf("%s: sandboxes not off: %s", c.in, b)
		}
		if strings.Contains(c.in, `"model"`) && (v.Model["name"] != "m" || v.Tools["discoveryCommand"] != "d") {
			t.Errorf("%s: the administrator's keys were lost: %s", c.in, b)
		}
	}
}

func TestState(t *testing.T) {
	st := New().State(agentstest.RingSession(nil))
	agentstest.CheckState(t, st, []string{"/home/u/.gemini"},
		[]string{"/home/u/.gemini/tmp", "/home/u/.gemini/projects.json", "/home/u/.gemini/installation_id"},
		[]string{"/home/u/.gemini/settings.json", "/home/u/.gemini/.env", "/home/u/.gemini/trustedFolders.json",
			"/home/u/.gemini/extensions/e/gemini-extension.json", "/home/u/.gemini/policies/p.toml",
			"/home/u/.gemini/commands/c.toml", "/home/u/.gemini/history/ws/.git/config"})
	if !slices.Contains(st.ReadOnly, "/home/u/.gemini/tmp/bin/") {
		t.Errorf("tmp/bin (the ripgrep Gemini runs) is not read-only inside tmp/: %v", st.ReadOnly)
	}
	if got := New().State(agentstest.RingSession(map[string]string{"GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:9"})).Providers; !slices.Equal(got, []string{"http://127.0.0.1:9"}) {
		t.Errorf("Providers with a base URL = %v", got)
	}
	if got := st.Providers; !slices.Contains(got, "generativelanguage.googleapis.com") {
		t.Errorf("default Providers = %v", got)
	}
}

// TestResumeArgs: the newest chat file since the start names the id.
func TestResumeArgs(t *testing.T) {
	t.Parallel()
	s := agentstest.Session(t, "0.61.0")
	chats := filepath.Join(s.Home, ".gemini", "tmp", "ws", "chats")
	os.MkdirAll(chats, 0o700)
	start := time.Now().Add(-time.Minute)
	if _, ok := New().ResumeArgs(s, start); ok {
		t.Fatal("resume without a chat file")
	}
	os.WriteFile(filepath.Join(chats, "session-2026-12-02T11-18-59af4ddf.jsonl"),
		[]byte(`{"sessionId":"59af4ddf-6f66-4a23-80fb-8cadd5e2d2ec","kind":"main"}`+"\n{}\n"), 0o600)
	args, ok := New().ResumeArgs(s, start)
	if !ok || !slices.Equal(args, []string{"--resume", "59af4ddf-6f66-4a23-80fb-8cadd5e2d2ec"}) {
		t.Errorf("ResumeArgs = %q, %v", args, ok)
	}
	if _, ok := New().ResumeArgs(s, time.Now().Add(time.Hour)); ok {
		t.Error("an older chat file was taken")
	}
}
