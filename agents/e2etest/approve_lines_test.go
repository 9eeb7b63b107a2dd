// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// linesProbe runs each of its arguments with `bash -c` (the shim, in the
// agent ring), one after the other, and writes their statuses.
const linesProbe = `
import subprocess, sys
rcs = [str(subprocess.run(["bash", "-c", c]).returncode) for c in sys.argv[1:]]
open("rcs.txt", "w").write(" ".join(rcs) + "\n")
`

// fakeTool records its name and arguments in ran.txt, so that nothing
// real is published or destroyed.
const fakeTool = "#!/bin/sh\necho \"$(basename \"$0\") $*\" >> \"$(dirname \"$0\")/../ran.txt\"\n"

// TestApproveEveryFinding (issue #26, findings 4 and 5), through the
// real launcher, `launch exec` and `lite-sandbox approve`, as root and
// as nobody, in one session: a script that names only echo runs unasked
// (the control) while one that holds `npm publish` asks; a line with
// two ask rules lists both in one question, and yes runs it; after `yes
// --session` for `npm publish` alone, that line and another shape of the
// same rule still ask, while `npm publish` alone then runs on the grant.
// npm and terraform are fakes on PATH.
func TestApproveEveryFinding(t *testing.T) {
	users(t, func(t *testing.T, e *env) {
		e.write("probe.py", linesProbe)
		e.write("ok.sh", "echo hi > ok-ran.txt\n")
		e.write("x.sh", "echo hi\nnpm publish\n")
		for _, tool := range []string{"npm", "terraform"} {
			e.write("bin/"+tool, fakeTool)
			if err := os.Chmod(filepath.Join(e.ws, "bin", tool), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for i, v := range e.vars {
			if strings.HasPrefix(v, "PATH=") {
				e.vars[i] = "PATH=" + filepath.Join(e.ws, "bin") + ":/usr/local/bin:/usr/bin:/bin"
			}
		}
		both := "npm publish && terraform destroy -auto-approve"
		lines := []string{"bash ok.sh", "bash x.sh", "npm publish", both, "npm publish; npm publish --tag evil", "npm publish"}
		ctx, cancel := context.WithTimeout(context.Background(), 240*time.Second)
		defer cancel()
		e.chownTree()
		cmd := e.lsCmd(ctx, append([]string{"launch", "--sandbox", "on", "--ask-wait", "60s", "exec", "--", "/usr/bin/python3", "probe.py"}, lines...)...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		e.answerQuestion("pkg.publish", "no", "In the script x.sh", "npm publish")
		e.answerQuestion("pkg.publish", "session", "npm publish")
		e.answerQuestion("pkg.publish,infra.apply", "once", "npm publish; terraform destroy -auto-approve", "infra.apply", "pkg.publish")
		e.answerQuestion("pkg.publish", "no", "npm publish; npm publish --tag evil")
		if err := cmd.Wait(); err != nil {
			t.Fatalf("launch exec: %v\n%s", err, out.String())
		}
		rcs, _ := os.ReadFile(filepath.Join(e.ws, "rcs.txt"))
		got := strings.Fields(string(rcs))
		if len(got) != len(lines) {
			t.Fatalf("statuses %q of %q\n%s", got, lines, out.String())
		}
		for i, want := range []bool{true, false, true, true, false, true} {
			if (got[i] == "0") != want {
				t.Errorf("%q: status %s, want ran=%v\n%s", lines[i], got[i], want, out.String())
			}
		}
		if _, err := os.Stat(filepath.Join(e.ws, "ok-ran.txt")); err != nil {
			t.Errorf("the control script did not run: %v", err)
		}
		ran, _ := os.ReadFile(filepath.Join(e.ws, "ran.txt"))
		if want := "npm publish\nnpm publish\nterraform destroy -auto-approve\nnpm publish\n"; string(ran) != want {
			t.Errorf("the fakes ran:\n%s\nwant:\n%s", ran, want)
		}
		grants := 0
		for _, r := range e.auditRecords() {
			if r["answered_how"] == "grant" {
				grants++
			}
		}
		if grants != 1 {
			t.Errorf("%d commands ran on the session grant, want 1 (the last npm publish)", grants)
		}
	})
}

// answerQuestion waits for the question of rule, checks that `approve
// show` shows each of shows, and answers it: no, once or session.
func (e *env) answerQuestion(rule, reply string, shows ...string) {
	t := e.t
	t.Helper()
	id := e.pendingID(rule)
	o, err := e.approve("show", id)
	for _, want := range shows {
		if !strings.Contains(o, want) {
			t.Errorf("approve show %s: %v; want %q in:\n%s", id, err, want, o)
		}
	}
	args := map[string][]string{"no": {"no", id}, "once": {"yes", id}, "session": {"yes", "--session", id}}[reply]
	if o, err := e.approve(args...); err != nil {
		t.Fatalf("approve %v: %v\n%s", args, err, o)
	}
}
