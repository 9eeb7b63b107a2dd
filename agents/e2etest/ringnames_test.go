// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Text from inside is printed escaped (#25 finding 7, #26 point 6, class
// 58; internal/esc): a name the ring chose, or a command line, can
// neither send an escape sequence to the person's terminal (set its
// title) nor start a line that looks like lite-sandbox's own.

// hostileName sets the terminal's title and, after a newline, forges a
// line of ours.
const hostileName = "x\x1b]0;pwned\x07\n[lite-sandbox] forged"

// hostileShown is hostileName as lite-sandbox prints it.
const hostileShown = `x\x1b]0;pwned\x07\n[lite-sandbox] forged`

// probeNames creates the files of the JSON list in args["paths"] (with
// their directories).
func probeNames(s probeSpec, f map[string]string) {
	var paths []string
	json.Unmarshal([]byte(s.Args["paths"]), &paths)
	for i, p := range paths {
		err := os.MkdirAll(filepath.Dir(p), 0o755)
		if err == nil {
			err = os.WriteFile(p, []byte("ref: refs/heads/main\n"), 0o644)
		}
		f[fmt.Sprint(i)] = did(err)
	}
}

// probeRun runs each command of the JSON list in args["cmds"] with bash
// (in the ring: the shim), one after the other.
func probeRun(s probeSpec, f map[string]string) {
	var cmds []string
	json.Unmarshal([]byte(s.Args["cmds"]), &cmds)
	for i, c := range cmds {
		f[fmt.Sprint(i)] = did(exec.Command("bash", "-c", c).Run())
	}
}

// checkShown asserts that out shows what (escaped) and holds no raw
// control byte of it: no ESC, no BEL, no forged line.
func checkShown(t *testing.T, what, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("%s does not show %q:\n%s", what, w, out)
		}
	}
	if strings.ContainsAny(out, "\x1b\x07") || strings.Contains(out, "\n[lite-sandbox] forged") {
		t.Errorf("%s printed a control character from inside raw:\n%q", what, out)
	}
}

// TestRingNamesEscaped: a ring program leaves a new file in the home's
// scratch layer and a nested repository in the workspace, each under a
// hostile name; the session's closing lines name them escaped. Controls:
// an ordinary name beside each is listed as it is.
func TestRingNamesEscaped(t *testing.T) {
	users(t, func(t *testing.T, e *env) {
		paths, _ := json.Marshal([]string{
			filepath.Join(e.home, hostileName), filepath.Join(e.home, "ordinary-new.txt"),
			filepath.Join(e.ws, hostileName, ".git", "HEAD"), filepath.Join(e.ws, "plainrepo", ".git", "HEAD"),
		})
		b, _ := json.Marshal(probeSpec{Mode: "names", Out: filepath.Join(e.ws, ".probe-names.json"), Args: map[string]string{"paths": string(paths)}})
		out, errs, code := e.launch("exec", []string{escapeProbeEnv + "=" + string(b)}, probeBinary)
		if code != 0 {
			t.Fatalf("probe in the ring: exit %d\n%s\n%s", code, out, errs)
		}
		found, _ := os.ReadFile(filepath.Join(e.ws, ".probe-names.json"))
		if !strings.Contains(string(found), `"0":"yes"`) || !strings.Contains(string(found), `"2":"yes"`) {
			t.Fatalf("the probe did not create the hostile names: %s\n%s", found, errs)
		}
		checkShown(t, "the closing lines", errs,
			"~/"+hostileShown, "~/ordinary-new.txt",
			"created or changed in this session: "+hostileShown+"/.git: ", "created or changed in this session: plainrepo/.git: ")
	})
}

// TestApproveLogEscaped: a command held back by an ask rule with ESC, BEL
// and a newline inside its quotes is shown escaped by `approve list`,
// `approve show` and `log`. Control: a plain command of the same rule
// prints unchanged, and a yes to it runs it.
func TestApproveLogEscaped(t *testing.T) {
	users(t, func(t *testing.T, e *env) {
		e.withAskRule()
		hostile := "touch 'asked-" + hostileName + "'"
		shownCmd := "touch 'asked-" + hostileShown + "'"
		cmds, _ := json.Marshal([]string{hostile, "touch asked-plain.txt"})
		b, _ := json.Marshal(probeSpec{Mode: "run", Out: filepath.Join(e.ws, ".probe-run.json"), Args: map[string]string{"cmds": string(cmds)}})
		ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
		defer cancel()
		e.chownTree()
		cmd := e.lsCmd(ctx, "launch", "--sandbox", "on", "--ask-wait", "60s", "exec", "--", probeBinary)
		cmd.Env = append(cmd.Env, escapeProbeEnv+"="+string(b))
		var outb strings.Builder
		cmd.Stdout, cmd.Stderr = &outb, &outb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		id := e.pendingID("test.ask")
		list, _ := e.approve("list")
		checkShown(t, "approve list", list, shownCmd)
		show, err := e.approve("show", id)
		if err != nil {
			t.Fatalf("approve show: %v\n%s", err, show)
		}
		checkShown(t, "approve show", show, "command:  "+shownCmd+"\n")
		if o, err := e.approve("no", id); err != nil {
			t.Fatalf("approve no: %v\n%s", err, o)
		}
		// Control: the plain command is shown as it is.
		id = e.pendingID("test.ask")
		if show, err := e.approve("show", id); err != nil || !strings.Contains(show, "command:  touch asked-plain.txt\n") {
			t.Errorf("approve show of a plain command: %v\n%s", err, show)
		}
		if o, err := e.approve("yes", id); err != nil {
			t.Fatalf("approve yes: %v\n%s", err, o)
		}
		cmd.Wait()
		if _, err := os.Stat(filepath.Join(e.ws, "asked-plain.txt")); err != nil {
			t.Errorf("the plain command did not run after yes: %v\n%s", err, outb.String())
		}
		checkShown(t, "the session's output", outb.String())
		lctx, lcancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer lcancel()
		log, err := e.lsCmd(lctx, "log").CombinedOutput()
		if err != nil {
			t.Fatalf("lite-sandbox log: %v\n%s", err, log)
		}
		checkShown(t, "lite-sandbox log", string(log), shownCmd, "touch asked-plain.txt")
	})
}
