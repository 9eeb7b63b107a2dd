// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// TestGuardedPaths (#31, finding 3): through the real bubblewrap, a
// workspace that is not a repository gets no name on the host for a
// missing protected path (so nothing a packer could pick up), and each
// default protected path a command creates, directly, by a rename or
// through a link, is gone from the host at once (the command itself sees
// it go) and reported in quarantine. Control: an ordinary file made
// beside it lands on the host.
func TestGuardedPaths(t *testing.T) {
	t.Parallel()
	b := requireBwrap(t)
	home, ws := fakeHome(t)
	if err := os.WriteFile(filepath.Join(ws, "package.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := specFor(t, ws, home, nil)
	before := entries(t, ws)

	// While the sandbox runs the host sees the workspace as it was.
	r := runConfined(t, b, s, runOpts{}, `ls -A "$1"`, ws)
	if r.code != 0 {
		t.Fatalf("ls: %v", r)
	}
	if got := strings.Fields(r.stdout); !slices.Equal(got, before) {
		t.Errorf("inside the sandbox the workspace lists %v; bare %v", got, before)
	}

	for _, pr := range policy.Default().Sandbox.Protect {
		name := strings.TrimSuffix(pr, "/")
		if strings.HasPrefix(name, ".git/") {
			continue // not a repository: git's own are the agent's (documented)
		}
		t.Run(name, func(t *testing.T) {
			// The command waits for the guard to take the name away, to a
			// deadline (a hang guard, not a timing claim).
			script := `set -e; mkdir -p "$(dirname "$1")"; echo x > "$1"; echo ok > "$1.beside"
				i=0; while [ -e "$1" ]; do i=$((i+1)); [ $i -lt 3000 ] || exit 9; sleep 0.01; done; echo GONE`
			if strings.HasSuffix(pr, "/") {
				script = `set -e; mkdir -p "$(dirname "$1")"; mkdir x.d; echo '{}' > x.d/settings.json; echo ok > "$1.beside"; mv x.d "$1"
				i=0; while [ -e "$1" ]; do i=$((i+1)); [ $i -lt 3000 ] || exit 9; sleep 0.01; done; echo GONE`
			}
			r, moved := runConfinedQ(t, b, s, runOpts{}, script, name)
			if r.code != 0 || !strings.Contains(r.stdout, "GONE") {
				t.Errorf("the guard did not take %s away while the command ran: %v", name, r)
			}
			if _, err := os.Lstat(filepath.Join(ws, name)); err == nil {
				t.Errorf("%s exists on the host", name)
			}
			checkQuarantined(t, moved, filepath.Join(ws, name))
			beside := filepath.Join(ws, name+".beside")
			if got, err := os.ReadFile(beside); err != nil || string(got) != "ok\n" {
				t.Errorf("control: %s.beside = %q, %v", name, got, err)
			}
			os.Remove(beside)
			if d := filepath.Dir(name); d != "." {
				// The parent the command made (.github) is ordinary: it stays.
				os.Remove(filepath.Join(ws, d))
			}
		})
	}

	t.Run("through a link", func(t *testing.T) {
		r, moved := runConfinedQ(t, b, s, runOpts{}, `ln -s .envrc e && echo x > e; ln -s /tmp .vscode`)
		if r.code != 0 {
			t.Fatalf("run: %v", r)
		}
		for _, n := range []string{".envrc", ".vscode"} {
			if _, err := os.Lstat(filepath.Join(ws, n)); err == nil {
				t.Errorf("%s exists on the host", n)
			}
			checkQuarantined(t, moved, filepath.Join(ws, n))
		}
		if _, err := os.Lstat(filepath.Join(ws, "e")); err != nil {
			t.Errorf("control: the link e is gone: %v", err)
		}
		os.Remove(filepath.Join(ws, "e"))
	})

	if got := entries(t, ws); !slices.Equal(got, before) {
		t.Errorf("workspace after: %v; before %v", got, before)
	}
}

// TestGuardSweepLast: a protected path made on the host while two
// sandboxes of the workspace are prepared, after the first is done, is
// moved (by the second's guard or the sweep of the last sandbox) and
// reported; an ordinary name is left alone.
func TestGuardSweepLast(t *testing.T) {
	t.Parallel()
	requireBwrap(t)
	home, ws := fakeHome(t)
	s := specFor(t, ws, home, nil)
	b := sandbox.Backend{Name: "bwrap", Path: "/usr/bin/bwrap"}
	first, err := sandbox.Prepare(b, s, []string{"/bin/true"})
	if err != nil {
		t.Fatal(err)
	}
	second, err := sandbox.Prepare(b, s, []string{"/bin/true"})
	if err != nil {
		t.Fatal(err)
	}
	first.Done()
	if err := os.WriteFile(filepath.Join(ws, ".npmrc"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	second.Done()
	if _, err := os.Lstat(filepath.Join(ws, ".npmrc")); err == nil {
		t.Error(".npmrc left in the workspace")
	}
	checkQuarantined(t, append(first.Quarantined(), second.Quarantined()...), filepath.Join(ws, ".npmrc"))
	// Control: an ordinary name is left alone.
	if err := os.WriteFile(filepath.Join(ws, "npmrc.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	third, err := sandbox.Prepare(b, s, []string{"/bin/true"})
	if err != nil {
		t.Fatal(err)
	}
	third.Done()
	if _, err := os.Lstat(filepath.Join(ws, "npmrc.txt")); err != nil {
		t.Errorf("control: npmrc.txt: %v", err)
	}
}

// entries lists dir's names, sorted.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}
