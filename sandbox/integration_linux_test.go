// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/bwraptest"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// These tests run commands through the real bwrap. They skip when bwrap
// is missing or cannot build a sandbox, unless LITE_SANDBOX_REQUIRE_BWRAP=1
// (set by the project's test script), so that a broken install never
// passes silently.

const (
	sshCanary    = "LITE-SANDBOX-CANARY-ssh-3f9c1e"
	secretCanary = "LITE-SANDBOX-CANARY-home-77ab02"
	netrcCanary  = "LITE-SANDBOX-CANARY-netrc-5d10e4"
)

func requireBwrap(t *testing.T) sandbox.Backend {
	t.Helper()
	b, err := sandbox.Detect()
	bwraptest.Require(t, err)
	return b
}

// fakeHome creates a home directory outside /tmp (the sandbox's /tmp is a
// fresh tmpfs, which would make every home test pass vacuously) with an
// ssh key, a secret, a .netrc and the workspace at home/project. As
// another user, where /var/tmp is not writable, LITE_SANDBOX_TEST_HOMES
// names a writable directory outside /tmp to use instead.
func fakeHome(t *testing.T) (home, ws string) {
	t.Helper()
	base := os.Getenv("LITE_SANDBOX_TEST_HOMES")
	if base == "" {
		base = "/var/tmp"
	}
	home, err := os.MkdirTemp(base, "ls-sandbox-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	ws = filepath.Join(home, "project")
	for _, f := range []struct{ name, data string }{
		{".ssh/id_rsa", sshCanary + "\n"},
		{"secret.txt", secretCanary + "\n"},
		{".netrc", netrcCanary + "\n"},
		{"project/README", "hello\n"},
	} {
		p := filepath.Join(home, f.name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return home, ws
}

func specFor(t *testing.T, ws, home string, adjust func(*sandbox.Spec)) sandbox.Spec {
	t.Helper()
	s, err := policy.Default().SandboxSpec(ws, home, "")
	if err != nil {
		t.Fatal(err)
	}
	if adjust != nil {
		adjust(&s)
	}
	return s
}

type result struct {
	stdout, stderr string
	code           int
}

func (r result) String() string {
	return "exit " + strconv.Itoa(r.code) + "\nstdout: " + strconv.Quote(r.stdout) + "\nstderr: " + strconv.Quote(r.stderr)
}

// run executes /bin/sh -c script with args inside the sandbox.
func run(t *testing.T, b sandbox.Backend, s sandbox.Spec, script string, args ...string) result {
	t.Helper()
	if b.Name == sandbox.BackendLandlock {
		// Landlock's sandbox is the confinement step itself.
		return runConfined(t, b, s, runOpts{}, script, args...)
	}
	argv := append([]string{"/bin/sh", "-c", script, "sh"}, args...)
	p, err := sandbox.Prepare(b, s, argv)
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	defer p.Done()
	return runPrepared(t, p, runOpts{})
}

// runPrepared runs a prepared sandbox command with the host's environment
// plus o.env, in o.dir, and returns what it printed and its status.
func runPrepared(t *testing.T, p *sandbox.Prepared, o runOpts) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.Path)
	cmd.Args = p.Args
	cmd.Env = append(os.Environ(), o.env...)
	cmd.Dir = o.dir
	if o.stdin != nil {
		cmd.Stdin = o.stdin
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	default:
		t.Fatalf("run: %v", err)
	}
	if ctx.Err() != nil {
		t.Fatalf("sandboxed command timed out: %v", r)
	}
	return r
}

func TestBwrapSandbox(t *testing.T) {
	t.Parallel()
	b := requireBwrap(t)
	home, ws := fakeHome(t)
	base := specFor(t, ws, home, nil)
	// The subtests share one fake home and workspace, in this order.
	for _, c := range []struct {
		name string
		test func(t *testing.T, b sandbox.Backend, home, ws string, base sandbox.Spec)
	}{
		{"write in workspace", bwrapWriteInWorkspace},
		{"write outside fails", bwrapWriteOutsideFails},
		{"secrets unreadable", bwrapSecretsUnreadable},
		{"etc allow-list readable", bwrapEtcAllowList},
		{"private tmp", bwrapPrivateTmp},
		{"host processes invisible", bwrapHostProcessesInvisible},
		{"no capabilities", bwrapNoCapabilities},
		{"workspace under tmp wins", bwrapWorkspaceUnderTmp},
		{"odd workspace path", bwrapOddWorkspacePath},
		{"deny masks with home workspace", bwrapDenyMasksHomeWorkspace},
		{"symlink and hard link out of the workspace", bwrapLinksOut},
		{"network off", bwrapNetworkOff},
		{"argv exit status and output pass through", bwrapArgvPassThrough},
		{"cwd", bwrapCwd},
		{"root workspace keeps fresh proc and masks", bwrapRootWorkspace},
	} {
		t.Run(c.name, func(t *testing.T) { c.test(t, b, home, ws, base) })
	}
}

func TestDetectLinux(t *testing.T) {
	t.Parallel()
	b := requireBwrap(t)
	if b.Name != "bwrap" || !filepath.IsAbs(b.Path) {
		t.Errorf("backend = %+v", b)
	}
	out, err := exec.Command(b.Path, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), b.Version) || b.Version == "" {
		t.Errorf("version %q not in %q", b.Version, out)
	}
	st, err := sandbox.Resolve(policy.ModeOn, b, nil, "/srv/project", "/home/u")
	if err != nil || st.String() != "active (bwrap "+b.Version+")" {
		t.Errorf("Resolve = %v, %v", st, err)
	}
}
