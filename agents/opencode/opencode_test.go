// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package opencode

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
	s := agentstest.Session(t, "1.18.33", "run", "hi")
	p, err := New().Prepare(s)
	if err != nil {
		t.Fatal(err)
	}
	agentstest.Golden(t, "plan", p)
}

// TestPrepareOverlay: the user's own inline config and permissions
// stay, ours win on the keys we set; a broken one is an error.
func TestPrepareOverlay(t *testing.T) {
	t.Parallel()
	s := agentstest.Session(t, "1.18.33")
	env := map[string]string{
		"OPENCODE_CONFIG_CONTENT": `{"shell":"/usr/bin/python3","model":"m/x"}`,
		"OPENCODE_PERMISSION":     `{"bash":"deny","edit":"ask"}`,
	}
	s.Getenv = func(k string) string { return env[k] }
	p, err := New().Prepare(s)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]map[string]any{}
	for _, v := range p.Env {
		k, val, _ := strings.Cut(v, "=")
		if k == "OPENCODE_CONFIG_CONTENT" || k == "OPENCODE_PERMISSION" {
			m := map[string]any{}
			if err := json.Unmarshal([]byte(val), &m); err != nil {
				t.Fatalf("%s: %v", v, err)
			}
			got[k] = m
		}
	}
	if c := got["OPENCODE_CONFIG_CONTENT"]; c["shell"] != s.Shim || c["model"] != "m/x" || c["autoupdate"] != false {
		t.Errorf("config = %v", c)
	}
	if c := got["OPENCODE_PERMISSION"]; c["bash"] != "allow" || c["edit"] != "ask" {
		t.Errorf("permission = %v", c)
	}
	for _, bad := range []string{"OPENCODE_CONFIG_CONTENT", "OPENCODE_PERMISSION"} {
		s.Getenv = func(k string) string { return map[string]string{bad: "{"}[k] }
		if _, err := New().Prepare(s); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("a broken %s: err = %v", bad, err)
		}
	}
}

func TestState(t *testing.T) {
	t.Parallel()
	st := New().State(agentstest.RingSession(nil))
	const c, d, s, k = "/home/u/.config/opencode", "/home/u/.local/share/opencode", "/home/u/.local/state/opencode", "/home/u/.cache/opencode"
	agentstest.CheckState(t, st, []string{c, d, s, k},
		[]string{d + "/opencode.db", d + "/opencode.db-wal", d + "/log", d + "/storage", d + "/auth.json",
			s + "/model.json", s + "/prompt-history.jsonl", s + "/locks", k + "/models.json"},
		[]string{c + "/opencode.json", c + "/opencode.jsonc", c + "/plugins/p.ts", c + "/agents/a.md", c + "/node_modules/x/index.js",
			d + "/snapshot/p/config", d + "/bin/rg", k + "/bin/rg", k + "/node_modules/p/index.js"})
	xdg := New().State(agentstest.RingSession(map[string]string{"XDG_CONFIG_HOME": "/x/conf", "XDG_DATA_HOME": "rel"}))
	if !slices.Contains(xdg.Dirs, "/x/conf/opencode") || !slices.Contains(xdg.Dirs, "/home/u/.local/share/opencode") {
		t.Errorf("XDG dirs = %v", xdg.Dirs)
	}
}

// TestStateConfig: the user's own provider's base URL and key variable
// reach the ring's proxy and environment.
func TestStateConfig(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".config", "opencode"), 0o700)
	os.WriteFile(filepath.Join(home, ".config", "opencode", "opencode.json"),
		[]byte(`{"provider":{"m":{"options":{"baseURL":"http://127.0.0.1:9/v1","apiKey":"{env:MY_KEY}"}}}}`), 0o600)
	s := agentstest.RingSession(nil)
	s.Home = home
	st := New().State(s)
	if !slices.Contains(st.Providers, "http://127.0.0.1:9/v1") || !slices.Contains(st.LoginEnv, "MY_KEY") {
		t.Errorf("Providers %v, LoginEnv %v", st.Providers, st.LoginEnv)
	}
}

// TestResumeArgs: the last top-level session of the workspace created
// since the start, from opencode's log.
func TestResumeArgs(t *testing.T) {
	t.Parallel()
	s := agentstest.Session(t, "1.18.33")
	log := filepath.Join(s.Home, ".local", "share", "opencode", "log")
	os.MkdirAll(log, 0o700)
	start := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	if _, ok := New().ResumeArgs(s, start); ok {
		t.Fatal("resume without a log")
	}
	line := func(ts, id, dir, parent string) string {
		return "timestamp=" + ts + " level=INFO run=1 message=created id=" + id + " slug=a version=1.18.33 projectID=global directory=" + dir +
			" path=x workspaceID=undefined parentID=" + parent + ` title="New session"` + "\n"
	}
	os.WriteFile(filepath.Join(log, "opencode.log"), []byte(
		line("2026-12-02T13:59:00.000Z", "ses_old", s.Workspace, "undefined")+
			line("2026-12-02T14:01:00.000Z", "ses_main1", s.Workspace, "undefined")+
			line("2026-12-02T14:02:00.000Z", "ses_child", s.Workspace, "ses_main1")+
			line("2026-12-02T14:03:00.000Z", "ses_other", "/elsewhere", "undefined")), 0o600)
	args, ok := New().ResumeArgs(s, start)
	if !ok || !slices.Equal(args, []string{"--session", "ses_main1"}) {
		t.Errorf("ResumeArgs = %q, %v", args, ok)
	}
	if _, ok := New().ResumeArgs(s, start.Add(time.Hour)); ok {
		t.Error("an older session was taken")
	}
}
