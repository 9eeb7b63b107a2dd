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

// gitClassesScript is the positive control (a new file at the root and
// a commit) and then one try per git escape class: 10 (.git/config),
// 9 (a hook), 36 (.git/commondir), 13 (.envrc), 12 (.git renamed away
// and made again with a hook). Each prints WROTE-N when its write
// landed inside the sandbox; class 12 prints MOVED-12 once .git is
// renamed (under Landlock the guard may take the new hooks directory
// away before the hook is written: WROTE-12 is then missing). Before
// class 12 it waits (30 s at most) until the commondir it wrote is gone:
// renaming .git first would carry it out of the guard's reach before the
// guard saw it, on a busy machine, and the test asserts the guard's
// report of it (under bwrap the write failed and there is nothing to
// wait for).
const gitClassesScript = `echo new > "new-$1.txt" && git add -A && git -c user.name=a -c user.email=a@a commit -qm "work $1" && echo commit-ok
(printf '[core]\n\tfsmonitor = "echo pwned"\n' >> .git/config) 2>/dev/null && echo WROTE-10
(echo 'echo pwned' > .git/hooks/pre-commit) 2>/dev/null && echo WROTE-9
(echo /tmp/evil > .git/commondir) 2>/dev/null && echo WROTE-36
(echo 'echo pwned' > .envrc) 2>/dev/null && echo WROTE-13
n=0; while grep -qx /tmp/evil .git/commondir 2>/dev/null && [ $n -lt 300 ]; do sleep 0.1; n=$((n+1)); done
mv .git .g 2>/dev/null && echo MOVED-12 && (mkdir -p .git/hooks && echo 'echo pwned' > .git/hooks/pre-commit) && echo WROTE-12
true
`

// TestGitClassesBothBackends (#28, #31): the git escape classes 9, 10,
// 12, 13 and 36 against both backends, as root and as nobody: bwrap on
// the host (a boundary: the writes fail, but for .envrc, which its
// guard quarantines) and Landlock in the simulated container (a guard:
// the writes land inside and are undone, each reported). Under both the
// host's .git/config and hook are byte-identical afterwards and neither
// commondir nor .envrc is left; the positive control, a new file at the
// root and a commit, succeeds under both.
func TestGitClassesBothBackends(t *testing.T) {
	t.Parallel()
	if confine.Probe().LandlockABI < 1 {
		t.Skip("no Landlock on this kernel")
	}
	for _, p := range []string{"setpriv", "git"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skip("needs " + p)
		}
	}
	users(t, func(t *testing.T, e *env) {
		e.hostGit("init", "-q")
		e.write(".git/hooks/pre-commit", "#!/bin/sh\nexit 0\n")
		e.write("classes.sh", gitClassesScript)
		git := filepath.Join(e.ws, ".git")
		before := map[string]string{}
		for _, p := range []string{"config", "hooks/pre-commit"} {
			b, err := os.ReadFile(filepath.Join(git, p))
			if err != nil {
				t.Fatal(err)
			}
			before[p] = string(b)
		}
		check := func(backend, out, errs string, code int, wrote []string) {
			t.Helper()
			if code != 0 || !strings.Contains(out, "commit-ok\n") {
				t.Errorf("%s: exit %d, no commit-ok (the positive control):\n%s%s", backend, code, out, errs)
			}
			if moved := strings.Contains(out, "MOVED-12\n"); moved != (backend == "landlock") {
				t.Errorf("%s: class 12: .git renamed inside %v:\n%s%s", backend, moved, out, errs)
			}
			for _, c := range []string{"9", "10", "12", "13", "36"} {
				if c == "12" && backend == "landlock" {
					continue // MOVED-12 above; the hook's write may lose to the guard
				}
				want := strings.Contains(strings.Join(wrote, " "), c)
				if got := strings.Contains(out, "WROTE-"+c+"\n"); got != want {
					t.Errorf("%s: class %s: write landed inside %v, want %v:\n%s%s", backend, c, got, want, out, errs)
				}
			}
			for p, b := range before {
				if got, err := os.ReadFile(filepath.Join(git, p)); err != nil || string(got) != b {
					t.Errorf("%s: the host's .git/%s: %q, %v; want it unchanged", backend, p, got, err)
				}
			}
			for _, p := range []string{filepath.Join(git, "commondir"), filepath.Join(e.ws, ".envrc")} {
				if _, err := os.Lstat(p); err == nil {
					t.Errorf("%s: %s left on the host", backend, p)
				}
			}
		}
		out, errs, code := e.run(nil, "sh", "classes.sh", "bwrap")
		if strings.Contains(errs, "landlock backend") {
			t.Fatalf("host run is not bwrap:\n%s", errs)
		}
		check("bwrap", out, errs, code, []string{"13"})
		out, errs, code = e.container("run", "--sandbox", "on", "--", "sh", "classes.sh", "landlock")
		if !strings.Contains(errs, "lite-sandbox: landlock backend (ABI ") {
			t.Fatalf("container run is not landlock:\n%s", errs)
		}
		check("landlock", out, errs, code, []string{"9", "10", "13", "36"})
		for _, want := range []string{".git/config is a protected path and was changed", ".git/hooks is a protected path and was changed",
			".git/commondir is a protected path and appeared", ".envrc is a protected path and appeared"} {
			if !strings.Contains(errs, want) {
				t.Errorf("landlock: no line %q:\n%s", want, errs)
			}
		}
	})
}
