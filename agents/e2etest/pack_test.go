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
)

// packLists prints what npm pack, tar and zip take from the working
// directory, each list sorted.
const packLists = `set -e
npm pack --dry-run --json --no-update-notifier 2>/dev/null | grep '"path"' | tr -d ' ,' | sort
echo == tar; tar -cf - . | tar -tf - | sort
echo == zip; z="$(mktemp -u)".zip; zip -qr "$z" .; unzip -Z1 "$z" | sort; rm -f "$z"`

// TestPackLikeBare (#31, finding 3): through the real bubblewrap, as root
// and as nobody, npm pack --dry-run, tar and zip of a workspace list the
// same files under lite-sandbox run and in a session as bare on the
// host: a protected path that does not exist has no placeholder (a name
// on the host a packer picks up) but the launcher's guard. The pair:
// .envrc and .claude/settings.json made inside are moved to quarantine
// with a line saying so, while plain.txt beside them (the control) lands
// on the host.
func TestPackLikeBare(t *testing.T) {
	t.Parallel()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed")
	}
	for _, tool := range []string{"tar", "zip", "unzip"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip(tool + " is not installed")
		}
	}
	users(t, func(t *testing.T, e *env) {
		t.Parallel()
		e.setPath(filepath.Dir(npm))
		e.write("package.json", `{"name":"demo","version":"1.0.0","main":"index.js"}`+"\n")
		e.write("index.js", "module.exports = 1\n")
		e.write("README.md", "demo\n")
		e.write("src/a.txt", "a\n")
		e.chownTree()
		cmd := exec.Command("sh", "-c", packLists)
		cmd.Dir, cmd.Env = e.ws, e.vars
		e.credential(cmd)
		b, err := cmd.CombinedOutput()
		bare := string(b)
		if err != nil || !strings.Contains(bare, `"path":"package.json"`) || !strings.Contains(bare, "./src/a.txt") || !strings.Contains(bare, "\nsrc/a.txt") {
			t.Fatalf("bare: %v\n%s", err, bare)
		}
		for _, where := range []string{"run", "session"} {
			out, errs, code := e.packIn(where, packLists)
			if code != 0 || out != bare {
				t.Errorf("%s: exit %d, lists differ from bare\n%s\nbare:\n%s\n%s", where, code, out, bare, errs)
			}

			const make = `echo x > .envrc; mkdir -p .claude; echo '{}' > .claude/settings.json; echo ok > plain.txt`
			_, errs, _ = e.packIn(where, make)
			for _, p := range []string{".envrc", ".claude"} {
				if _, err := os.Lstat(filepath.Join(e.ws, p)); err == nil {
					t.Errorf("%s: %s exists on the host", where, p)
				}
				if !strings.Contains(errs, filepath.Join(e.ws, p)+" is a protected path and appeared while a sandbox of the workspace ran: moved to ") {
					t.Errorf("%s: no quarantine line for %s:\n%s", where, p, errs)
				}
			}
			if got, err := os.ReadFile(filepath.Join(e.ws, "plain.txt")); err != nil || string(got) != "ok\n" {
				t.Errorf("%s: control: plain.txt = %q, %v", where, got, err)
			}
			os.Remove(filepath.Join(e.ws, "plain.txt"))
		}
	})
}

// packIn runs script with sh in the workspace under lite-sandbox run or
// in a session (launch exec).
func (e *env) packIn(where, script string) (string, string, int) {
	e.t.Helper()
	if where == "run" {
		return e.run(nil, "sh", "-c", script)
	}
	return e.launch("exec", nil, "/bin/sh", "-c", script)
}
