// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
)

// recipeDir is the container recipe (docs/container.md), seen from this
// package's directory.
const recipeDir = "../../docs/container"

// containerfileLines are the recipe's Containerfile lines the simulated
// container stands in for: the README's install command (the binaries
// land beside the entrypoint), the entrypoint this test runs, a user
// that is not root. A change to one of them must change this test.
var containerfileLines = []string{
	"RUN PREFIX=/opt/lite-sandbox scripts/install",
	"COPY --from=build /opt/lite-sandbox/bin/lite-sandbox /opt/lite-sandbox/bin/lite-sandbox-shim /usr/local/bin/",
	"COPY docs/container/entrypoint.sh /usr/local/bin/lite-sandbox-entrypoint",
	"ENV LITE_SANDBOX_BACKEND=landlock",
	"USER node",
	`ENTRYPOINT ["/usr/local/bin/lite-sandbox-entrypoint"]`,
}

// readRecipe checks the Containerfile's lines against
// containerfileLines and returns its environment (every ENV line), which
// the simulated container gets too.
func readRecipe(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(recipeDir, "Containerfile"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for _, want := range containerfileLines {
		found := false
		for _, l := range lines {
			found = found || strings.TrimSpace(l) == want
		}
		if !found {
			t.Errorf("docs/container/Containerfile lacks %q: the recipe and this test have drifted apart", want)
		}
	}
	var env []string
	for _, l := range lines {
		if kv, ok := strings.CutPrefix(strings.TrimSpace(l), "ENV "); ok {
			env = append(env, strings.Fields(kv)...)
		}
	}
	return env
}

// entrypointOnce copies the recipe's entrypoint beside the built
// binaries, as the Containerfile puts it beside the installed ones.
var (
	entrypointOnce sync.Once
	entrypointPath string
	entrypointErr  error
)

func recipeEntrypoint(t *testing.T) string {
	t.Helper()
	entrypointOnce.Do(func() {
		var b []byte
		if b, entrypointErr = os.ReadFile(filepath.Join(recipeDir, "entrypoint.sh")); entrypointErr == nil {
			entrypointPath = filepath.Join(filepath.Dir(binary), "lite-sandbox-entrypoint")
			entrypointErr = os.WriteFile(entrypointPath, b, 0o755)
		}
	})
	if entrypointErr != nil {
		t.Fatal(entrypointErr)
	}
	return entrypointPath
}

// recipe runs the recipe's entrypoint with args (the container's
// arguments) in the simulated container (containerScript) as e's user,
// in the workspace, with the Containerfile's environment and the
// binaries on PATH, and returns stdout, stderr and the status.
func (e *env) recipe(env []string, args ...string) (string, string, int) {
	e.t.Helper()
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		e.t.Skip("needs unshare")
	}
	entry := recipeEntrypoint(e.t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := e.lsCmd(ctx)
	cmd.Path = unshare
	cmd.Args = containerArgv(append([]string{entry}, args...)...)
	// Later entries win: the image's PATH (the binaries, the agent's CLI).
	path := filepath.Dir(binary) + ":/usr/bin:/bin"
	if e.agentDir != "" {
		path = e.agentDir + ":" + path
	}
	cmd.Env = append(append(cmd.Env, env...), "PATH="+path)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	e.chownTree()
	err = cmd.Run()
	if ctx.Err() != nil {
		e.t.Fatalf("recipe %v: timed out\n%s%s", args, out.String(), errb.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		e.t.Fatalf("recipe %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

// TestContainerRecipe (#28): docs/container.md's recipe as far as this
// machine can run it (no container runtime, no cluster): the recipe's
// own entrypoint, with the Containerfile's environment, in the
// simulated container (no user namespaces, no capabilities), as root
// and as nobody. doctor names the Landlock backend, its ABI and what it
// lacks, and points at docs/container.md; `--dry-run AGENT` names the
// backend and the missing ring; a session's command of `exec --` (the
// agent's shell command) reads no canary of the home and writes nothing
// outside the workspace, and still writes the workspace, reads the
// system and its TMPDIR. The control (landlockFixture): the same probe
// on the host reads and writes everything.
func TestContainerRecipe(t *testing.T) {
	t.Parallel()
	if confine.Probe().LandlockABI < 1 {
		t.Skip("no Landlock on this kernel")
	}
	if _, err := exec.LookPath("setpriv"); err != nil {
		t.Skip("needs setpriv")
	}
	vars := readRecipe(t)
	users(t, func(t *testing.T, e *env) {
		_, agentsh, written := landlockFixture(t, e)

		out, errs, code := e.recipe(vars, "--dry-run", "claude")
		all := out + errs
		for _, want := range []string{"backend: landlock backend (ABI ", "lacks no private /tmp", "ABI<",
			"container: in a container (", "without user namespaces (clone(CLONE_NEWUSER): ", "docs/container.md",
			"network: open (landlock backend", "sandbox: active (landlock ABI ", // doctor
			"sandbox: landlock backend (ABI ", "agent ring: landlock (no namespace)", "ring (landlock: no namespace"} { // the plan
			if !strings.Contains(all, want) {
				t.Errorf("recipe --dry-run claude: no %q:\n%s", want, all)
			}
		}
		if code != 0 || strings.Contains(all, "UNSANDBOXED") {
			t.Errorf("recipe --dry-run claude: exit %d:\n%s", code, all)
		}

		// The control: on the host, where a user namespace can be made,
		// doctor names bwrap and points at no recipe.
		out, errs, code = e.lite(nil, "doctor")
		if code != 0 || strings.Contains(out, "container: ") || strings.Contains(out, "landlock backend") {
			t.Errorf("host doctor: exit %d, a container line or landlock:\n%s%s", code, out, errs)
		}

		// docs/container.md: a new file at the root of a git checkout is
		// made (the workspace is one Landlock grant; protected paths are
		// held by the launcher's guard), beside the probe's own checks.
		out, errs, code = e.recipe(vars, "exec", "--", agentsh, "-c", `$SHELL -c "sh probe.sh; (: > new-at-root) && echo root-new-made"`)
		if code != 0 || !strings.Contains(errs, "landlock backend (ABI ") {
			t.Errorf("recipe exec: exit %d, no landlock line:\n%s%s", code, out, errs)
		}
		checkConfined(t, "recipe session command", out, errs)
		if !strings.Contains(out, "root-new-made") {
			t.Errorf("recipe exec: a new file at the workspace root was not made (docs/container.md says it is):\n%s", out)
		}
		if !strings.Contains(out, "python-denied 13") {
			t.Errorf("recipe exec: python's read was not refused with EACCES (Landlock):\n%s", out)
		}
		for _, p := range written {
			if b, err := os.ReadFile(p); err == nil && len(b) > 0 {
				t.Errorf("recipe exec: %s was written on the host", p)
			}
		}
		if b, err := os.ReadFile(filepath.Join(e.ws, "out", "w.txt")); err != nil || string(b) != "ok\n" {
			t.Errorf("recipe exec: the workspace write did not land (%q, %v)", b, err)
		}
	})
}

// TestContainerRecipeClaude (#28): the recipe's image command, `claude`
// with its arguments, run by the recipe's entrypoint in the simulated
// container as root and as nobody, with the real Claude Code CLI and the
// scripted model: the command the model asks for (the workspace probe)
// runs under the Landlock backend, reads no canary of the home, writes
// nothing outside the workspace, and still writes the workspace; the
// model never sees the API key.
func TestContainerRecipeClaude(t *testing.T) {
	t.Parallel()
	if confine.Probe().LandlockABI < 1 {
		t.Skip("no Landlock on this kernel")
	}
	if _, err := exec.LookPath("setpriv"); err != nil {
		t.Skip("needs setpriv")
	}
	bin := agentBin(t, "claude", "npm install -g @anthropic-ai/claude-code@2.1.197")
	vars := readRecipe(t)
	asUsers(t, func(t *testing.T) *env { return newEnv(t, bin, "sh probe.sh") }, "claude", func(t *testing.T, e *env) {
		_, _, written := landlockFixture(t, e)
		out, errs, code := e.recipe(append(vars, claudeEnv(e)...), "claude", "--",
			"-p", "run the command", "--dangerously-skip-permissions", "--output-format", "json")
		if code != 0 || !strings.Contains(errs, "landlock backend (ABI ") {
			t.Fatalf("recipe claude: exit %d, no landlock line:\n%s%s", code, out, errs)
		}
		res := e.result(out, errs)
		checkConfined(t, "recipe claude command", res, errs)
		if strings.Contains(res, secretKey) {
			t.Errorf("recipe claude: the tool result holds the API key:\n%s", res)
		}
		for _, p := range written {
			if b, err := os.ReadFile(p); err == nil && len(b) > 0 {
				t.Errorf("recipe claude: %s was written on the host", p)
			}
		}
	})
}

// podLines are what docs/container/pod.yaml must hold for the recipe's
// claim "a default, unprivileged pod" (the restricted Pod Security
// Standard), and podRefused what it must not: no YAML parser is a
// dependency, so these are its lines, trimmed.
var (
	podLines = []string{"runAsNonRoot: true", "runAsUser: 1000", "type: RuntimeDefault", "allowPrivilegeEscalation: false",
		"privileged: false", `drop: ["ALL"]`, "image: lite-sandbox-agent:latest", `args: ["claude", "--", "-p", "fix the failing test"]`}
	podRefused = []string{"privileged: true", "SYS_ADMIN", "Unconfined", "hostUsers", "procMount", "add:", "hostPID", "hostNetwork"}
)

// TestContainerRecipeFiles (#28): the pod runs the Containerfile's
// image as its user (uid 1000, the node image's), unprivileged, under
// the runtime's seccomp profile; the Containerfile installs with the
// README's install command. The control: each refused line is found
// when it is there (a pod with privileged: true).
func TestContainerRecipeFiles(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join(recipeDir, "pod.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		lines[strings.TrimPrefix(strings.TrimSpace(l), "- ")] = true
	}
	for _, want := range podLines {
		if !lines[want] {
			t.Errorf("docs/container/pod.yaml lacks %q", want)
		}
	}
	refused := func(pod string) []string {
		var found []string
		for _, bad := range podRefused {
			if strings.Contains(pod, bad) {
				found = append(found, bad)
			}
		}
		return found
	}
	if bad := refused(string(b)); len(bad) > 0 {
		t.Errorf("docs/container/pod.yaml has %q: not a default, unprivileged pod", bad)
	}
	if bad := refused(strings.Replace(string(b), "privileged: false", "privileged: true", 1)); len(bad) != 1 {
		t.Errorf("control: a privileged pod was not caught (%q)", bad)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "\nscripts/install ") {
		t.Errorf("README.md no longer installs with scripts/install: change the Containerfile's RUN line and containerfileLines")
	}
}
