// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package pi

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/agents/agentstest"
)

func TestMajor(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]int{"0.73.1": 0, "1.6.0": 1, "v2.0.0": 2, "pi 1.0": -1, "": -1} {
		if got := major(v); got != want {
			t.Errorf("Major(%q) = %d, want %d", v, got, want)
		}
	}
}

func TestPrepare(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, version string }{{"plan-0.x", "0.73.1"}, {"plan-1.x", "1.6.0"}} {
		t.Run(tc.name, func(t *testing.T) {
			s := agentstest.Session(t, tc.version, "-p", "hi")
			p, err := New().Prepare(s)
			if err != nil {
				t.Fatal(err)
			}
			agentstest.Golden(t, tc.name, p)
			// 0.x rejects --no-approve; 1.x needs it (project trust).
			if got := slices.Contains(p.Argv, "--no-approve"); got != (tc.version[0] == '1') {
				t.Fatalf("argv %q", p.Argv)
			}
		})
	}
	if _, err := New().Prepare(agentstest.Session(t, "")); err == nil {
		t.Fatal("an unknown version must be an error, not a guess at the flags")
	}
}

// TestUserState: the user's settings are kept (with shellPath forced)
// and their credentials, models and sessions linked.
func TestUserState(t *testing.T) {
	t.Parallel()
	s := agentstest.Session(t, "0.73.1")
	user := filepath.Join(s.Home, ".pi", "agent")
	os.MkdirAll(filepath.Join(user, "sessions"), 0o700)
	os.WriteFile(filepath.Join(user, "settings.json"), []byte(`{"theme":"dark","shellPath":"/bin/bash"}`), 0o600)
	os.WriteFile(filepath.Join(user, "auth.json"), []byte(`{}`), 0o600)
	p, err := New().Prepare(s)
	if err != nil {
		t.Fatal(err)
	}
	var settings string
	var links []string
	for _, f := range p.Files {
		if f.Link != "" {
			links = append(links, filepath.Base(f.Path)+"->"+f.Link)
		} else if filepath.Base(f.Path) == "settings.json" {
			settings = string(f.Content)
		}
	}
	if !strings.Contains(settings, `"theme": "dark"`) || !strings.Contains(settings, `"shellPath": "`+s.Shim+`"`) || strings.Contains(settings, `"shellPath": "/bin/bash"`) {
		t.Fatalf("settings %s", settings)
	}
	want := []string{"auth.json->" + filepath.Join(user, "auth.json"), "sessions->" + filepath.Join(user, "sessions")}
	if !slices.Equal(links, want) {
		t.Fatalf("links %q, want %q", links, want)
	}
}

// TestUserStateFirstRun: in the ring the user's sessions/ is linked even
// before it exists (State.CreateDirs makes it before Pi starts), so that a
// first session's history is not saved in the session dir and lost.
func TestUserStateFirstRun(t *testing.T) {
	t.Parallel()
	for _, ring := range []bool{false, true} {
		s := agentstest.Session(t, "0.73.1")
		s.Ring = ring
		p, err := New().Prepare(s)
		if err != nil {
			t.Fatal(err)
		}
		user := filepath.Join(s.Home, ".pi", "agent", "sessions")
		linked := slices.ContainsFunc(p.Files, func(f agents.File) bool { return f.Link == user })
		if linked != ring {
			t.Errorf("ring %v: sessions linked %v", ring, linked)
		}
		if ring && !slices.Contains(New().State(s).CreateDirs, user) {
			t.Errorf("State.CreateDirs lacks %s", user)
		}
	}
}

// TestExtension: the embedded extension refuses to load without the
// shim (fail closed) and registers both routes.
func TestExtension(t *testing.T) {
	t.Parallel()
	src := string(extension)
	for _, want := range []string{"throw new Error", `registerTool`, `pi.on("user_bash"`, "shellPath: shim"} {
		if !strings.Contains(src, want) {
			t.Errorf("extension lacks %q", want)
		}
	}
}
