// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
)

// landlockGitScript is a workspace script (the validator sees `sh
// gitwork.sh`): the positive controls, a new file at the workspace root
// and git add + commit (git's index.lock in .git); then writes to
// protected paths: .git/config appended to, an existing hook rewritten,
// .envrc created. It waits, to a deadline, until it sees each put back
// or taken away by the launcher's guard.
const landlockGitScript = `echo new > newfile.txt && echo root-new-ok
git add -A && git -c user.name=a -c user.email=a@a commit -qm work && echo commit-ok
cp .git/config "$TMPDIR/config0"; cp .git/hooks/pre-commit "$TMPDIR/hook0"
echo '[core]
	fsmonitor = "echo pwned >&2"' >> .git/config && echo WROTE-config
echo 'echo pwned' > .git/hooks/pre-commit && echo WROTE-hook
echo 'echo pwned' > .envrc && echo WROTE-envrc
wait_for() { i=0; until eval "$1"; do i=$((i+1)); [ $i -lt 3000 ] || { echo "STUCK $2"; return; }; sleep 0.01; done; echo "$2"; }
wait_for 'cmp -s .git/config "$TMPDIR/config0"' config-restored
wait_for 'cmp -s .git/hooks/pre-commit "$TMPDIR/hook0"' hook-restored
wait_for '[ ! -e .envrc ]' envrc-gone
`

// TestLandlockGitGuard (#28, #31): in the simulated container, as root
// and as nobody, under the Landlock backend the workspace root and .git
// are writable, so a new file at the root and git add + commit succeed
// (positive controls); the protected paths there are held by the
// launcher's guard: a write to .git/config and to an existing hook is
// undone from the copy taken at start (the changed version in the
// quarantine, reported in the closing lines) and a created .envrc is
// moved to the quarantine; afterwards the host's files are
// byte-identical to before. The control: the same writes on the host
// land (landlockFixture's probe, and the script's own WROTE- lines).
func TestLandlockGitGuard(t *testing.T) {
	t.Parallel()
	if confine.Probe().LandlockABI < 1 {
		t.Skip("no Landlock on this kernel")
	}
	for _, p := range []string{"setpriv", "git", "cmp"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skip("needs " + p)
		}
	}
	users(t, func(t *testing.T, e *env) {
		e.hostGit("init", "-q")
		e.write(".git/hooks/pre-commit", "#!/bin/sh\nexit 0\n")
		if err := os.Chmod(filepath.Join(e.ws, ".git", "hooks", "pre-commit"), 0o755); err != nil {
			t.Fatal(err)
		}
		e.write("README", "hello\n")
		e.write("gitwork.sh", landlockGitScript)
		e.hostGit("add", "README")
		e.hostGit("-c", "user.name=a", "-c", "user.email=a@a", "commit", "-qm", "init")
		cfg := filepath.Join(e.ws, ".git", "config")
		hook := filepath.Join(e.ws, ".git", "hooks", "pre-commit")
		before := map[string][]byte{}
		for _, p := range []string{cfg, hook} {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			before[p] = b
		}

		out, errs, code := e.container("run", "--sandbox", "on", "--", "sh", "gitwork.sh")
		if code != 0 || !strings.Contains(errs, "lite-sandbox: landlock backend (ABI ") {
			t.Fatalf("container run: exit %d, not under landlock:\n%s%s", code, out, errs)
		}
		for _, want := range []string{"root-new-ok", "commit-ok", "WROTE-config", "WROTE-hook", "WROTE-envrc",
			"config-restored", "hook-restored", "envrc-gone"} {
			if !strings.Contains(out, want+"\n") {
				t.Errorf("no %q in the output:\n%s%s", want, out, errs)
			}
		}
		if strings.Contains(out, "STUCK") {
			t.Errorf("the guard did not act while the command ran:\n%s", out)
		}
		// The host: the commit and the new file are there, the protected
		// files as before, no .envrc.
		if log := e.hostGit("log", "--format=%s"); !strings.HasPrefix(log, "work\n") {
			t.Errorf("host git log: %q, want the sandbox's commit first", log)
		}
		if b, err := os.ReadFile(filepath.Join(e.ws, "newfile.txt")); err != nil || string(b) != "new\n" {
			t.Errorf("newfile.txt on the host: %q, %v", b, err)
		}
		for p, want := range before {
			if got, err := os.ReadFile(p); err != nil || string(got) != string(want) {
				t.Errorf("%s on the host changed: %q, %v; want %q", p, got, err, want)
			}
		}
		if _, err := os.Lstat(filepath.Join(e.ws, ".envrc")); err == nil {
			t.Error(".envrc exists on the host")
		}
		// The closing lines: restored (the changed version quarantined
		// with the sandbox's content) and moved.
		// .git/hooks is guarded as a whole: its changed version is the
		// directory.
		checkRestoredLine(t, errs, cfg, "")
		checkRestoredLine(t, errs, filepath.Dir(hook), "pre-commit")
		if !strings.Contains(errs, filepath.Join(e.ws, ".envrc")+" is a protected path and appeared while a sandbox of the workspace ran: moved to ") {
			t.Errorf("no quarantine line for .envrc:\n%s", errs)
		}
	})
}

// checkRestoredLine finds the guard's line for p and checks that the
// quarantined version (its entry rel, for a directory) holds the
// sandbox's write ("pwned").
func checkRestoredLine(t *testing.T, errs, p, rel string) {
	t.Helper()
	prefix := "lite-sandbox: " + p + " is a protected path and was changed while a sandbox of the workspace ran: restored from the copy taken at start; the changed version was moved to "
	for _, l := range strings.Split(errs, "\n") {
		rest, ok := strings.CutPrefix(l, prefix)
		if !ok {
			continue
		}
		to, _, _ := strings.Cut(rest, " (")
		if b, err := os.ReadFile(filepath.Join(to, rel)); err != nil || !strings.Contains(string(b), "pwned") {
			t.Errorf("the quarantined version of %s (%s): %q, %v", p, to, b, err)
		}
		return
	}
	t.Errorf("no restore line for %s:\n%s", p, errs)
}

// landlockGitEscapeScript tries classes 12 and 36 under Landlock: a
// commondir planted in .git (a redirect to a git directory with
// core.fsmonitor), then .git renamed away and a new one made with a
// hook of its own (the guard may take the new hooks directory away
// before the hook is written), then .git replaced by a link to a
// changed copy.
const landlockGitEscapeScript = `echo "$TMPDIR/evil" > .git/commondir && echo WROTE-commondir
wait_for() { i=0; until eval "$1"; do i=$((i+1)); [ $i -lt 3000 ] || { echo "STUCK $2"; return; }; sleep 0.01; done; echo "$2"; }
wait_for '[ ! -e .git/commondir ]' commondir-gone
mv .git .g && echo WROTE-renamed && mkdir -p .git/hooks && echo 'echo pwned' > .git/hooks/pre-commit
wait_for 'cmp -s .git/hooks/pre-commit .g/hooks/pre-commit' renamed-hook-restored
cp -r .g .g2 && echo 'echo pwned' > .g2/hooks/pre-commit && mv .git .g3 && ln -s .g2 .git && echo WROTE-link
wait_for '[ ! -L .git ]' link-gone
`

// TestLandlockGitEscapes (#28; classes 12, 36): under the Landlock
// backend in the simulated container, as root and as nobody, a planted
// .git/commondir is moved to the quarantine, a .git renamed away and
// made again with a hook gets the original hook back, and a .git
// replaced by a link is moved away; the host's hook is byte-identical
// at the end (in .git or, after the link, in the quarantine's copy
// of .git's directory) and each is reported. The control: the script's
// own WROTE- lines (each write landed inside before the guard acted).
func TestLandlockGitEscapes(t *testing.T) {
	t.Parallel()
	if confine.Probe().LandlockABI < 1 {
		t.Skip("no Landlock on this kernel")
	}
	for _, p := range []string{"setpriv", "git", "cmp"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skip("needs " + p)
		}
	}
	users(t, func(t *testing.T, e *env) {
		e.hostGit("init", "-q")
		e.write(".git/hooks/pre-commit", "#!/bin/sh\nexit 0\n")
		e.write("escape.sh", landlockGitEscapeScript)
		out, errs, code := e.container("run", "--sandbox", "on", "--", "sh", "escape.sh")
		if code != 0 || !strings.Contains(errs, "lite-sandbox: landlock backend (ABI ") {
			t.Fatalf("container run: exit %d, not under landlock:\n%s%s", code, out, errs)
		}
		for _, want := range []string{"WROTE-commondir", "commondir-gone", "WROTE-renamed", "renamed-hook-restored", "WROTE-link", "link-gone"} {
			if !strings.Contains(out, want+"\n") {
				t.Errorf("no %q in the output:\n%s%s", want, out, errs)
			}
		}
		if strings.Contains(out, "STUCK") {
			t.Errorf("the guard did not act while the command ran:\n%s", out)
		}
		git := filepath.Join(e.ws, ".git")
		if fi, err := os.Lstat(git); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			t.Errorf(".git is a link on the host")
		}
		if _, err := os.Lstat(filepath.Join(git, "commondir")); err == nil {
			t.Errorf(".git/commondir exists on the host")
		}
		for _, want := range []string{
			filepath.Join(git, "commondir") + " is a protected path and appeared while a sandbox of the workspace ran: moved to ",
			filepath.Join(git, "hooks") + " is a protected path and was changed while a sandbox of the workspace ran: restored",
			git + " is a protected path and appeared while a sandbox of the workspace ran: moved to ",
		} {
			if !strings.Contains(errs, want) {
				t.Errorf("no line %q:\n%s", want, errs)
			}
		}
		// Nowhere on the host a hook that says pwned in .git.
		if b, err := os.ReadFile(filepath.Join(git, "hooks", "pre-commit")); err == nil && strings.Contains(string(b), "pwned") {
			t.Errorf("the host's .git/hooks/pre-commit holds the sandbox's hook")
		}
	})
}
