// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package codex

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/agents/agentstest"
)

func TestState(t *testing.T) {
	st := New().State(agentstest.RingSession(nil))
	agentstest.CheckState(t, st, []string{"/home/u/.codex"},
		[]string{"/home/u/.codex/sessions", "/home/u/.codex/log", "/home/u/.codex/history.jsonl", "/home/u/.codex/auth.json", "/home/u/.codex/state_5.sqlite", "/home/u/.codex/state_5.sqlite-wal"},
		[]string{"/home/u/.codex/config.toml", "/home/u/.codex/hooks.json", "/home/u/.codex/.env", "/home/u/.codex/AGENTS.md",
			"/home/u/.codex/rules/default.rules", "/home/u/.codex/prompts/p.md", "/home/u/.codex/skills/s/SKILL.md"})
	st = New().State(agentstest.RingSession(map[string]string{"CODEX_HOME": "/c"}))
	agentstest.CheckState(t, st, []string{"/c"}, []string{"/c/sessions"}, []string{"/c/config.toml"})
	if !slices.Equal(st.Credentials, []string{"/c/auth.json"}) {
		t.Errorf("CODEX_HOME: %+v", st)
	}
}

// TestArgsEnv (#31): a provider's key named by the user's own -c or
// --config override stays in the ring's environment, as one named in
// config.toml does; other overrides and the prompt name nothing.
func TestArgsEnv(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"-c", "model_providers.x.env_key=MY_KEY"}, []string{"MY_KEY"}},
		{[]string{"--config", `model_providers.x.env_key="MY_KEY"`}, []string{"MY_KEY"}},
		{[]string{"--config=model_providers.x.env_key='K2'"}, []string{"K2"}},
		{[]string{"-c", `model_providers.x={name="x", base_url="http://h", env_key="INLINE_KEY"}`, "-c", "model_provider=x"}, []string{"INLINE_KEY"}},
		{[]string{"-cmodel_providers.y.env_key=Y_KEY"}, []string{"Y_KEY"}},
		// Positive control beside the negatives: the same key as a
		// prompt, after "--", or in another option names nothing.
		{[]string{"exec", "env_key=NOT_ME"}, nil},
		{[]string{"--", "-c", "model_providers.x.env_key=NOT_ME"}, nil},
		{[]string{"-c", "model_provider=x", "-m", "env_key=NOT_ME"}, nil},
		{[]string{"-c", "model_providers.x.my_env_key=NOT_ME"}, nil},
	} {
		if got := argsEnv(tc.args); !slices.Equal(got, tc.want) {
			t.Errorf("argsEnv(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
	st := New().State(func() agents.Session {
		s := agentstest.RingSession(nil)
		s.Args = []string{"exec", "-c", "model_providers.x.env_key=MY_KEY"}
		return s
	}())
	if !slices.Contains(st.LoginEnv, "MY_KEY") || !slices.Contains(st.LoginEnv, "OPENAI_*") {
		t.Errorf("LoginEnv = %q, want MY_KEY beside OPENAI_*", st.LoginEnv)
	}
}

// TestStateScratch (#31): the names Codex leaves at every start are
// declared as expected scratch, and nothing of its data or code is.
func TestStateScratch(t *testing.T) {
	st := New().State(agentstest.RingSession(nil))
	for _, want := range []string{"/home/u/.codex/skills/.system/", "/home/u/.codex/thread-writer-locks/"} {
		if !slices.Contains(st.Scratch, want) {
			t.Errorf("Scratch %q lacks %q", st.Scratch, want)
		}
	}
	for _, s := range st.Scratch {
		for _, w := range append(append([]string{}, st.Write...), st.Credentials...) {
			if s == w || s == w+"/" {
				t.Errorf("%q is both quiet scratch and kept", s)
			}
		}
	}
}

// TestProviders (#27): the agent ring's proxy lets Codex reach every
// base_url of the user's config.toml and -c overrides, OPENAI_BASE_URL
// and OpenAI's own hosts.
func TestProviders(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := "model_provider = \"mock\"\n[model_providers.mock]\nbase_url = \"http://127.0.0.1:9999/v1\"\n[model_providers.other]\n  base_url='https://gw.example.com/v1'\n"
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	s := agentstest.RingSession(map[string]string{"CODEX_HOME": dir, "OPENAI_BASE_URL": "https://proxy.example/v1"})
	s.Args = []string{"-c", `model_providers.x={name="x", base_url="http://10.0.0.5:8000/v1"}`, "--", "-c", "model_providers.y.base_url=http://late.example"}
	got := New().State(s).Providers
	for _, want := range []string{"http://127.0.0.1:9999/v1", "https://gw.example.com/v1", "http://10.0.0.5:8000/v1", "https://proxy.example/v1", "api.openai.com", "chatgpt.com"} {
		if !slices.Contains(got, want) {
			t.Errorf("providers %v lack %s", got, want)
		}
	}
	if slices.Contains(got, "http://late.example") {
		t.Errorf("an argument after -- counted: %v", got)
	}
}
