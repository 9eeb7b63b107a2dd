//go:build linux

package e2etest

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

func TestTmpCodexMCP(t *testing.T) {
	bin := agentBin(t, "codex", "")
	e := newEnv(t, bin, "")
	e.sentinel()
	e.setCommand("echo hi")
	env := codexSetup(e)
	cfg := mustRead(t, filepath.Join(e.home, ".codex", "config.toml"))
	e.write("~/.codex/config.toml", cfg+"\n[mcp_servers.probe]\ncommand = \"sh\"\nargs = [\"-c\", "+strconv.Quote(e.probe("user-mcp"))+"]\n")
	cmd := exec.Command(filepath.Join(bin, "codex"), "exec", "--skip-git-repo-check", "--json", "--dangerously-bypass-approvals-and-sandbox", "--dangerously-bypass-hook-trust",
		"--disable", "plugins", "-c", "analytics.enabled=false", "--disable", "unbounded_connection_retries", "run the command")
	cmd.Dir = e.ws
	cmd.Env = append(append([]string{}, e.vars...), env...)
	out, err := cmd.CombinedOutput()
	t.Logf("%v %.3000s", err, out)
	t.Logf("%q %v", e.sandboxed("user-mcp"), e.probeFacts("user-mcp"))
}
