// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-sandbox/lite-sandbox/agents/mockmodel"
	"github.com/lite-sandbox/lite-sandbox/internal/bwraptest"
	"github.com/lite-sandbox/lite-sandbox/internal/hostprobe"
)

// binary is the lite-sandbox binary built by TestMain.
var binary string

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == dockerSeccompArg {
		os.Exit(dockerSeccomp(os.Args[2:]))
	}
	if os.Getenv(ptyHelperEnv) != "" {
		os.Exit(ptyHelper())
	}
	if spec := os.Getenv(ringProbeEnv); spec != "" {
		os.Exit(ringProbe(spec))
	}
	if spec := os.Getenv(keepProbeEnv); spec != "" {
		os.Exit(keepProbe(spec))
	}
	if code, ok := hostprobe.Main(); ok {
		os.Exit(code)
	}
	if spec := os.Getenv(escapeProbeEnv); spec != "" {
		os.Exit(escapeProbe(spec))
	}
	if filepath.Base(os.Args[0]) == fsmonName {
		os.Exit(fsmonProbe())
	}
	dir, err := os.MkdirTemp("", "lite-sandbox-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "lite-sandbox")
	// Both binaries, as scripts/install installs them: launch links the
	// sessions' shells (and the ring's) to the shim binary beside it.
	cmd := exec.Command("go", "build", "-o", dir+"/", "github.com/lite-sandbox/lite-sandbox/cmd/lite-sandbox", "github.com/lite-sandbox/lite-sandbox/cmd/lite-sandbox-shim")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "building lite-sandbox: %v\n", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	// The probes of ringescape_test.go run as this test binary, also as
	// an unprivileged user: a copy where every user may run it.
	os.Chmod(dir, 0o755)
	if probeBinary, err = copyExecutable(dir); err != nil {
		fmt.Fprintf(os.Stderr, "copying the test binary: %v\n", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// probeBinary is a copy of this test binary that every user may run.
var probeBinary string

func copyExecutable(dir string) (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(self)
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, "e2etest-probe")
	return p, os.WriteFile(p, b, 0o755)
}

// needBwrap skips (or fails, under scripts/test) without bubblewrap.
func needBwrap(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("sessions need Linux")
	}
	_, err := exec.LookPath("bwrap")
	bwraptest.Require(t, err)
}

// agentBin finds an agent CLI in $LITE_SANDBOX_AGENTS_BIN, then on PATH,
// and returns the directory holding it; else it skips (or fails, when
// scripts/test said it installed the CLIs).
func agentBin(t *testing.T, name, install string) string {
	t.Helper()
	if d := os.Getenv("LITE_SANDBOX_AGENTS_BIN"); d != "" {
		if fi, err := os.Stat(filepath.Join(d, name)); err == nil && !fi.IsDir() {
			return d
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return filepath.Dir(p)
	}
	// scripts/test installed the pinned CLIs: a missing one (crush is
	// never among them) is a broken install, not a reason to skip.
	if os.Getenv("LITE_SANDBOX_AGENTS_BIN") != "" && name != "crush" {
		t.Fatalf("%s is missing from $LITE_SANDBOX_AGENTS_BIN (%s): scripts/agents should have installed it", name, os.Getenv("LITE_SANDBOX_AGENTS_BIN"))
	}
	t.Skipf("%s is not installed, so its end-to-end test was skipped (install: %s; scripts/agents installs the pinned CLIs)", name, install)
	return ""
}

// env is one agent run's world: a workspace, a scratch home with a
// canary in ~/.ssh, a private runtime directory, and the mock model.
type env struct {
	t        *testing.T
	ws       string
	home     string
	canary   string
	mock     *mockmodel.Server
	vars     []string
	agentDir string
	// refusedIDs are the tool call ids of a script that must be refused.
	refusedIDs []string
	// cred, when set, is the user lite-sandbox runs as (the tests'
	// unprivileged case, as root).
	cred *syscall.Credential
	// wrap, when set, rewrites every lite-sandbox command line (the
	// network tests start it inside their own network namespace).
	wrap func(cmd *exec.Cmd)
}

const (
	canaryText = "CANARY-d41d8cd9"
	secretKey  = "sk-mock-secret-5f3a"
	finalText  = "MOCK-FINAL-ANSWER"
)

// allowedCommand proves the command ran in the sandbox: it writes a file
// in the workspace, cannot read the home's canary, and does not see the
// agent's API key variable (keyVar). The canary's path is spelled
// through a variable so that the validator (which denies the literal
// path) lets it through: the OS sandbox, not the validator, must hide it.
func allowedCommand(e *env, keyVar string) string {
	return fmt.Sprintf("echo PROBE > probe.txt; d=.ssh; cat %s/$d/canary 2>&1 || echo canary=unreadable; echo key=${%s:-absent}; echo done-marker",
		e.home, keyVar)
}

// deniedCommand is refused by the validator as a whole: the touch must
// not run either.
const deniedCommand = "touch denied-marker.txt; git push --force origin main"

func newEnv(t *testing.T, agentDir, command string) *env {
	t.Helper()
	needBwrap(t)
	root := t.TempDir()
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, ws: filepath.Join(real, "ws"), home: filepath.Join(real, "home"), agentDir: agentDir}
	run := filepath.Join(real, "run")
	for _, d := range []string{e.ws, filepath.Join(e.home, ".ssh"), run} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	e.canary = filepath.Join(e.home, ".ssh", "canary")
	if err := os.WriteFile(e.canary, []byte(canaryText+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.vars = []string{
		"PATH=" + agentDir + ":/usr/local/bin:/usr/bin:/bin",
		"HOME=" + e.home,
		"XDG_RUNTIME_DIR=" + run,
		"XDG_CONFIG_HOME=" + filepath.Join(e.home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(e.home, ".local", "share"),
		"XDG_CACHE_HOME=" + filepath.Join(e.home, ".cache"),
		"LITE_SANDBOX_CONFIG=",
		"LANG=C.UTF-8",
		"TERM=dumb",
	}
	if command != "" {
		e.setCommand(command)
	}
	return e
}

func (e *env) setCommand(command string) {
	if e.mock != nil {
		e.mock.Close()
	}
	m, err := mockmodel.Start(mockmodel.Scenario{Command: command, Final: finalText})
	if err != nil {
		e.t.Fatal(err)
	}
	e.mock = m
	e.t.Cleanup(func() { m.Close() })
}

func (e *env) write(rel, content string) {
	e.t.Helper()
	p := filepath.Join(e.ws, rel)
	if strings.HasPrefix(rel, "~/") {
		p = filepath.Join(e.home, rel[2:])
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		e.t.Fatal(err)
	}
}

// launch runs `lite-sandbox launch --sandbox on AGENT -- args` in the
// workspace with stdin /dev/null and a hard timeout, and returns its
// stdout, stderr and exit status.
func (e *env) launch(agent string, extraEnv []string, args ...string) (string, string, int) {
	e.t.Helper()
	t0 := time.Now()
	out, errs, code := e.lite(extraEnv, append([]string{"launch", "--sandbox", "on", agent, "--"}, args...)...)
	e.t.Logf("launch %s took %v", agent, time.Since(t0).Round(time.Millisecond))
	return out, errs, code
}

// liteWait bounds one lite-sandbox run: a hang guard only, never a
// timing assertion. A native agent's run of a few turns (opencode) took
// 85 s as nobody on a loaded 2-core machine, so two minutes was too close.
const liteWait = 4 * time.Minute

// lite runs the lite-sandbox binary with args in the workspace as e's
// user, stdin /dev/null, with a hang guard (liteWait), and returns
// its stdout, stderr and exit status.
func (e *env) lite(extraEnv []string, args ...string) (string, string, int) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), liteWait)
	defer cancel()
	cmd := e.lsCmd(ctx, args...)
	cmd.Env = append(cmd.Env, extraEnv...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	e.chownTree()
	err := cmd.Run()
	if ctx.Err() != nil {
		e.t.Fatalf("lite-sandbox %s: timed out after %v\nstdout:\n%s\nstderr:\n%s", args[0], liteWait, out.String(), errb.String())
	}
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			e.t.Fatalf("lite-sandbox %s: %v", args[0], err)
		}
		code = ee.ExitCode()
	}
	return out.String(), errb.String(), code
}

// result is the one tool result the mock received.
func (e *env) result(stdout, stderr string) string {
	e.t.Helper()
	rs := e.mock.ToolResults()
	if len(rs) != 1 {
		e.t.Fatalf("the mock got %d tool results (%q), want 1; requests %v\nstdout:\n%s\nstderr:\n%s", len(rs), rs, e.mock.Requests(), stdout, stderr)
	}
	return rs[0]
}

// checkAllowed asserts what allowedCommand proves.
func (e *env) checkAllowed(res, stdout, stderr string) {
	e.t.Helper()
	for _, want := range []string{"done-marker", "canary=unreadable", "key=absent"} {
		if !strings.Contains(res, want) {
			e.t.Errorf("tool result lacks %q:\n%s\nstdout:\n%s\nstderr:\n%s", want, res, stdout, stderr)
		}
	}
	if strings.Contains(res, canaryText) {
		e.t.Errorf("the command read the canary in ~/.ssh: not sandboxed:\n%s", res)
	}
	if strings.Contains(res, secretKey) {
		e.t.Errorf("the command saw the agent's API key:\n%s", res)
	}
	if b, err := os.ReadFile(filepath.Join(e.ws, "probe.txt")); err != nil || strings.TrimSpace(string(b)) != "PROBE" {
		e.t.Errorf("probe.txt in the workspace: %q, %v", b, err)
	}
	if !strings.Contains(stdout, finalText) {
		e.t.Errorf("stdout lacks the final answer %q:\n%s\nstderr:\n%s", finalText, stdout, stderr)
	}
}

// checkDenied asserts that the validator refused the command, the model
// got its reason, and nothing of the command ran.
func (e *env) checkDenied(res string) {
	e.t.Helper()
	if !strings.Contains(res, "blocked by git.push.force") {
		e.t.Errorf("tool result lacks the validator's reason:\n%s", res)
	}
	if _, err := os.Stat(filepath.Join(e.ws, "denied-marker.txt")); err == nil {
		e.t.Errorf("denied-marker.txt exists: part of a denied command ran")
	}
}

// absent asserts that a marker file a hostile project file would write
// does not exist.
func (e *env) absent(rel string) {
	e.t.Helper()
	if _, err := os.Stat(filepath.Join(e.ws, rel)); err == nil {
		e.t.Errorf("%s exists: the project's file ran code outside the sandbox", rel)
	}
}
