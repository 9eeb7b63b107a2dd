// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// hookJSON is one settings/hooks.json hook entry list running command.
func hookJSON(command string) []any {
	return []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": command}}}}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestClaudeRoutes (#8): under `launch claude`, unattended, every other
// way Claude starts a shell ends in the command sandbox: the user's own
// hooks (~/.claude/settings.json, SessionStart and PreToolUse: they run,
// which they did not before the ring), the repository's hooks
// (.claude/settings.json), an MCP stdio server of the user's
// (~/.claude.json) and of the repository (.mcp.json) started as
// `sh -c '...'`, and one that is a `#!/bin/sh` script. Then the history: the transcript is written in
// ~/.claude/projects and a second launch with --continue sends the model
// the first session's conversation.
func TestClaudeRoutes(t *testing.T) {
	t.Parallel()
	bin := agentBin(t, "claude", "npm install -g @anthropic-ai/claude-code@2.1.197")
	e := newEnv(t, bin, "")
	e.sentinel()
	e.setCommand(allowedCommand(e, "ANTHROPIC_API_KEY"))
	e.write("~/.claude/settings.json", mustJSON(t, map[string]any{
		"enableAllProjectMcpServers": true,
		"hooks": map[string]any{
			"SessionStart": hookJSON(e.probe("user-start")),
			"PreToolUse":   hookJSON(e.probe("user-pretool")),
		}}))
	e.write(".claude/settings.json", mustJSON(t, map[string]any{"hooks": map[string]any{
		"SessionStart": hookJSON(e.probe("repo-start")),
		"PreToolUse":   hookJSON(e.probe("repo-pretool")),
	}}))
	mcp := func(name string) map[string]any {
		return map[string]any{"type": "stdio", "command": "sh", "args": []string{"-c", e.probe(name)}}
	}
	// A #!/bin/sh script as the server: the kernel runs /bin/sh, the
	// shim, with the script's path (the FILE form).
	e.write("mcp-server.sh", "#!/bin/sh\n"+e.probe("script-mcp")+"\n")
	if err := os.Chmod(filepath.Join(e.ws, "mcp-server.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.write("~/.claude.json", mustJSON(t, map[string]any{"mcpServers": map[string]any{"userprobe": mcp("user-mcp"),
		"scriptprobe": map[string]any{"type": "stdio", "command": filepath.Join(e.ws, "mcp-server.sh")}}}))
	e.write(".mcp.json", mustJSON(t, map[string]any{"mcpServers": map[string]any{"repoprobe": mcp("repo-mcp")}}))

	out, errs, code := runClaude(e)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	e.checkAllowed(e.result(out, errs), out, errs)
	for _, r := range []string{"user-start", "user-pretool", "repo-start", "repo-pretool", "user-mcp", "repo-mcp", "script-mcp"} {
		e.checkProbe(r, out, errs)
	}

	// History: the session's transcript, and --continue of it.
	proj, _ := filepath.Glob(filepath.Join(e.home, ".claude", "projects", "*", "*.jsonl"))
	if len(proj) == 0 {
		t.Fatalf("no transcript in ~/.claude/projects after the session")
	}
	first := e.mock
	e.setCommand("echo second-session")
	out, errs, code = e.launch("claude", claudeEnv(e), "--continue", "-p", "go on", "--dangerously-skip-permissions", "--output-format", "json")
	if code != 0 {
		t.Fatalf("--continue: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	_ = first
	if !e.mock.Saw("done-marker") || !e.mock.Saw("run the command") {
		t.Errorf("--continue did not send the first session's conversation to the model\nstderr:\n%s", errs)
	}
	if !strings.Contains(out, finalText) {
		t.Errorf("--continue: no final answer\nstdout:\n%s", out)
	}
}

// codexRewrite is a Codex hooks.json whose SessionStart hook runs the
// probe start, and whose PreToolUse hook runs the probe pretool and then
// answers (from a file in the workspace, so that the JSON needs no
// quoting) with the command rewritten to `/bin/bash -c '<probe rewrite>'`:
// a hook that answers after ours and takes our rewrite away.
func codexRewrite(e *env, start, pretool, rewrite string) string {
	answer := ".answer-" + rewrite + ".json"
	e.write(answer, mustJSON(e.t, map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PreToolUse", "permissionDecision": "allow",
		"updatedInput": map[string]any{"command": "/bin/bash -c '" + e.probe(rewrite) + "'"}}}))
	return mustJSON(e.t, map[string]any{"hooks": map[string]any{
		"SessionStart": []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": e.probe(start)}}}},
		"PreToolUse":   hookJSON(e.probe(pretool) + "; sleep 1; cat " + filepath.Join(e.ws, answer)),
	}})
}

// TestCodexRoutes (#8): under `launch codex`, the user's own
// ~/.codex/hooks.json and a trusted repository's .codex/hooks.json run
// in the command sandbox (SessionStart and PreToolUse), and their
// PreToolUse answer, which replaces our rewrite with a command of their
// own (`/bin/bash -c ...`), still runs in the command sandbox: the
// routing does not depend on our hook answering last. The session is
// recorded in ~/.codex/sessions.
func TestCodexRoutes(t *testing.T) {
	t.Parallel()
	bin := agentBin(t, "codex", "npm install -g @openai/codex@0.171.0")
	for _, who := range []string{"user", "repo"} {
		t.Run(who, func(t *testing.T) {
			e := newEnv(t, bin, "")
			e.sentinel()
			e.setCommand(e.probe("original"))
			env := codexSetup(e)
			hooks := codexRewrite(e, who+"-start", who+"-pretool", who+"-rewrite")
			if who == "user" {
				e.write("~/.codex/hooks.json", hooks)
				// And an MCP stdio server of the user's, started with sh -c.
				cfg := mustRead(t, filepath.Join(e.home, ".codex", "config.toml"))
				e.write("~/.codex/config.toml", cfg+"\n[mcp_servers.probe]\ncommand = \"sh\"\nargs = [\"-c\", "+strconv.Quote(e.probe("user-mcp"))+"]\n")
			} else {
				e.write(".codex/hooks.json", hooks)
				// The user trusted this project in Codex before.
				cfg := mustRead(t, filepath.Join(e.home, ".codex", "config.toml"))
				e.write("~/.codex/config.toml", cfg+"\n[projects."+strconv.Quote(e.ws)+"]\ntrust_level = \"trusted\"\n")
			}
			out, errs, code := e.launch("codex", env, "exec", "--skip-git-repo-check", "--json",
				"--disable", "plugins", "-c", "analytics.enabled=false", "--disable", "unbounded_connection_retries", "run the command")
			if code != 0 {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
			}
			for _, r := range []string{who + "-start", who + "-pretool"} {
				e.checkProbe(r, out, errs)
			}
			// The hook answered last (it sleeps first), so its command
			// replaced ours (measured on 0.171: the original never
			// runs), and it ran in the command sandbox all the same.
			e.checkProbe(who+"-rewrite", out, errs)
			if e.probeFacts("original") != nil {
				t.Errorf("the original command ran too: the hook's answer did not win, so this test no longer tests it")
			}
			if s, _ := filepath.Glob(filepath.Join(e.home, ".codex", "sessions", "*", "*", "*", "rollout-*.jsonl")); len(s) == 0 {
				t.Errorf("no session recorded in ~/.codex/sessions")
			}
			if who != "user" {
				return
			}
			e.checkProbe("user-mcp", out, errs)
			// History: `codex exec resume --last` under launch sends the
			// model the first session's conversation.
			// A new mock (config.toml rewritten for it): what it sees of
			// the first session came from Codex's history.
			e.setCommand("echo second-session")
			env = codexSetup(e)
			out, errs, code = e.launch("codex", env, "exec", "--skip-git-repo-check", "--json",
				"--disable", "plugins", "-c", "analytics.enabled=false", "--disable", "unbounded_connection_retries", "resume", "--last", "go on")
			resumed := e.mock.Saw("run the command") && e.mock.Saw("go on")
			if code != 0 || !resumed {
				t.Errorf("exec resume --last: exit %d, the model saw the first session: %v\nstdout:\n%s\nstderr:\n%s", code, resumed, out, errs)
			}
		})
	}
}

// TestLogins (#8): under launch, in the ring, each agent logs in with the
// user's own credential file (no API key in the environment): Claude's
// ~/.claude/.credentials.json (an OAuth token), Codex's ~/.codex/auth.json,
// Pi's ~/.pi/agent/auth.json. The mock sees the file's token.
func TestLogins(t *testing.T) {
	t.Parallel()
	t.Run("claude", func(t *testing.T) {
		bin := agentBin(t, "claude", "npm install -g @anthropic-ai/claude-code@2.1.197")
		e := newEnv(t, bin, "echo logged-in")
		const tok = "sk-ant-oat01-login-claude"
		e.write("~/.claude/.credentials.json", mustJSON(t, map[string]any{"claudeAiOauth": map[string]any{
			"accessToken": tok, "refreshToken": "sk-ant-ort01-refresh", "expiresAt": time.Now().Add(24 * time.Hour).UnixMilli(),
			"scopes": []string{"user:inference", "user:profile"}, "subscriptionType": "max"}}))
		var env []string
		for _, v := range claudeEnv(e) {
			if !strings.HasPrefix(v, "ANTHROPIC_API_KEY=") {
				env = append(env, v)
			}
		}
		out, errs, code := e.launch("claude", env, "-p", "run the command", "--dangerously-skip-permissions", "--output-format", "json")
		checkLogin(t, e, tok, out, errs, code)
	})
	t.Run("codex", func(t *testing.T) {
		bin := agentBin(t, "codex", "npm install -g @openai/codex@0.171.0")
		e := newEnv(t, bin, "echo logged-in")
		const tok = "sk-login-codex-7d1e"
		codexSetup(e)
		cfg := strings.Replace(mustRead(t, filepath.Join(e.home, ".codex", "config.toml")), `env_key = "MOCK_API_KEY"`, "requires_openai_auth = true", 1)
		e.write("~/.codex/config.toml", cfg)
		e.write("~/.codex/auth.json", mustJSON(t, map[string]any{"auth_mode": "apikey", "OPENAI_API_KEY": tok}))
		out, errs, code := e.launch("codex", []string{"CODEX_HOME=" + e.home + "/.codex"}, "exec", "--skip-git-repo-check", "--json",
			"--disable", "plugins", "-c", "analytics.enabled=false", "--disable", "unbounded_connection_retries", "run the command")
		checkLogin(t, e, tok, out, errs, code)
	})
	t.Run("pi", func(t *testing.T) {
		bin := agentBin(t, "pi", "npm install -g @mariozechner/pi-coding-agent@0.73.1")
		e := newEnv(t, bin, "echo logged-in")
		const tok = "sk-login-pi-4b2c"
		piSetup(e) // models.json names MOCK_API_KEY, which is not set: auth.json's key comes first
		e.write("~/.pi/agent/auth.json", mustJSON(t, map[string]any{"mock": map[string]any{"type": "api_key", "key": tok}}))
		out, errs, code := e.launch("pi", []string{"PI_CODING_AGENT_DIR=" + e.home + "/.pi/agent"}, "--provider", "mock", "--model", "mock-model",
			"--no-session", "-p", "run the command")
		checkLogin(t, e, tok, out, errs, code)
	})
}

func checkLogin(t *testing.T, e *env, tok, out, errs string, code int) {
	t.Helper()
	sent := false
	for _, a := range e.mock.Auth() {
		sent = sent || strings.Contains(a, tok)
	}
	if code != 0 || !sent || !strings.Contains(out, finalText) {
		t.Errorf("exit %d, the credential file's token sent: %v (sent %q)\nstdout:\n%.3000s\nstderr:\n%.3000s", code, sent, e.mock.Auth(), out, errs)
	}
	if rs := e.mock.ToolResults(); len(rs) != 1 || !strings.Contains(rs[0], "logged-in") {
		t.Errorf("tool results %q", rs)
	}
}
