// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package copilot

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lite-sandbox/lite-sandbox/agents/agentstest"
)

// TestPrepare: the shell tool's bash is the shim, Copilot's sandbox is
// off before the user's arguments, and its self-update is off.
func TestPrepare(t *testing.T) {
	t.Parallel()
	s := agentstest.Session(t, "1.0.102", "-p", "hi", "--yolo")
	p, err := New().Prepare(s)
	if err != nil {
		t.Fatal(err)
	}
	agentstest.Golden(t, "plan", p)
	if !slices.Equal(p.Argv[1:], []string{"--no-sandbox", "-p", "hi", "--yolo"}) {
		t.Errorf("argv = %q", p.Argv)
	}
	if !slices.Contains(p.Env, "COPILOT_BASH_PATH="+s.Shim) || !slices.Contains(p.Env, "COPILOT_AUTO_UPDATE=false") {
		t.Errorf("env = %q", p.Env)
	}
}

func TestState(t *testing.T) {
	t.Parallel()
	st := New().State(agentstest.RingSession(nil))
	agentstest.CheckState(t, st, []string{"/home/u/.copilot"},
		[]string{"/home/u/.copilot/session-state", "/home/u/.copilot/logs", "/home/u/.copilot/session-store.db"},
		[]string{"/home/u/.copilot/settings.json", "/home/u/.copilot/config.json", "/home/u/.copilot/hooks/h.json",
			"/home/u/.copilot/mcp-config.json", "/home/u/.copilot/pkg/linux-x64/9.9.9/index.js",
			"/home/u/.copilot/installed-plugins/p/plugin.json", "/home/u/.copilot/agents/a.agent.md"})
	if slices.ContainsFunc(st.Dirs, func(d string) bool { return filepath.Base(d) == "copilot" }) {
		t.Errorf("the extracted CLI (~/.cache/copilot) is a state layer: %v", st.Dirs)
	}
	byok := New().State(agentstest.RingSession(map[string]string{"COPILOT_PROVIDER_BASE_URL": "http://127.0.0.1:9/v1"}))
	if !slices.Equal(byok.Providers, []string{"http://127.0.0.1:9/v1"}) {
		t.Errorf("Providers with a BYOK base URL = %v", byok.Providers)
	}
	if !slices.Contains(st.Providers, "api.githubcopilot.com") {
		t.Errorf("default Providers = %v", st.Providers)
	}
	rs := agentstest.RingSession(nil)
	rs.Agent.Version = "GitHub Copilot CLI 1.0.102.\nRun 'copilot update' to check for updates."
	if got := New().State(rs).Read; len(got) != 3 || filepath.Base(got[1]) != "1.0.102" || filepath.Dir(filepath.Dir(got[1])) != "/home/u/.cache/copilot/pkg" {
		t.Errorf("Read with a detected version = %v", got)
	}
	home := New().State(agentstest.RingSession(map[string]string{"COPILOT_HOME": "/srv/cp"}))
	if !slices.Equal(home.Dirs, []string{"/srv/cp"}) {
		t.Errorf("Dirs with COPILOT_HOME = %v", home.Dirs)
	}
}

// TestResumeArgs: the newest session-state directory since the start
// names the id.
func TestResumeArgs(t *testing.T) {
	t.Parallel()
	s := agentstest.Session(t, "1.0.102")
	start := time.Now().Add(-time.Minute)
	if _, ok := New().ResumeArgs(s, start); ok {
		t.Fatal("resume without a session")
	}
	const id = "742879c9-8241-4d4e-ac21-1ea6e811a5e3"
	dir := filepath.Join(s.Home, ".copilot", "session-state", id)
	os.MkdirAll(dir, 0o700)
	os.WriteFile(filepath.Join(dir, "events.jsonl"), []byte(`{"type":"session.start"}`+"\n"), 0o600)
	if args, ok := New().ResumeArgs(s, start); !ok || !slices.Equal(args, []string{"--resume=" + id}) {
		t.Errorf("ResumeArgs = %q, %v", args, ok)
	}
	if _, ok := New().ResumeArgs(s, time.Now().Add(time.Hour)); ok {
		t.Error("an older session was taken")
	}
}
