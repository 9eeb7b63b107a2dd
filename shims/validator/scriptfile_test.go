// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// namedScriptFiles are the files of TestNamedScripts.
var namedScriptFiles = map[string]string{
	"/work/ws/x.sh":      "echo hi\nnpm publish\n",
	"/work/ws/ok.sh":     "echo hi\neval \"$x\"\n", // lenient: eval of a variable is left to the sandbox
	"/work/ws/y":         "#!/bin/sh\nterraform destroy -auto-approve\n",
	"/work/ws/env-y":     "#!/usr/bin/env -S bash -e\ngit push -f\n",
	"/work/ws/bare":      "npm publish\n",
	"/work/ws/py":        "#!/usr/bin/env python3\nnpm publish\n",
	"/work/ws/elf":       "\x7fELF\x02\x01npm publish\n",
	"/work/ws/outer.sh":  "cd sub && bash x.sh\n",
	"/work/ws/sub/x.sh":  "git reset --hard\n",
	"/work/ws/loop.sh":   "bash loop.sh\n",
	"/work/ws/d1.sh":     "bash d2.sh\n",
	"/work/ws/d2.sh":     "bash d3.sh\n",
	"/work/ws/d3.sh":     "bash d4.sh\n",
	"/work/ws/d4.sh":     "npm publish\n",
	"/work/ws/two.sh":    "npm publish\nterraform apply\n",
	"/work/ws/dynw.sh":   "echo hi > \"$LOG\"\ncp a x.sh\n",
	"/work/ws/rm-var.sh": "rm -rf \"$TD\"\n",
	"/work/ws/.ssh/k.sh": "npm publish\n",
}

// TestNamedScripts: ask and deny rules reach the scripts a command names
// (bash x.sh, sh x, ./y with a shell's shebang or none, source f, . f,
// bash < f), recursively to a small depth, read through Env.Scripts;
// python and other interpreters stay out of reach (issue #26, finding
// 5). Each refusal has an allowed control beside it.
func TestNamedScripts(t *testing.T) {
	t.Parallel()
	env := ruleExampleEnv()
	var read []string
	env.Scripts = func(abs string) (string, bool) {
		read = append(read, abs)
		s, ok := namedScriptFiles[abs]
		return s, ok
	}
	p := policy.Default()
	p.Sandbox.Deny = append(p.Sandbox.Deny, "${workspace}/.ssh")
	v, err := New(p, env)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ cmd, want string }{
		{"bash x.sh", "ask pkg.publish"},
		{"sh ./x.sh arg", "ask pkg.publish"},
		{"bash ok.sh", "allow"}, // control
		{"./y", "ask infra.apply"},
		{"timeout 5 ./y", "ask infra.apply"},
		{"./env-y", "deny git.push.force"},
		{"./bare", "ask pkg.publish"},
		{"./py", "allow"},  // out of reach: not a shell script
		{"./elf", "allow"}, // a program
		{"source x.sh", "ask pkg.publish"},
		{". ./x.sh", "ask pkg.publish"},
		{"bash < x.sh", "ask pkg.publish"},
		{"bash outer.sh", "deny git.reset.hard"},
		{"cd sub && bash x.sh", "deny git.reset.hard"},
		{"bash loop.sh", "allow"},
		{"bash d1.sh", "allow"}, // d4.sh is past the depth: not read
		{"bash d2.sh", "ask pkg.publish"},
		{"bash rm-var.sh", "allow"}, // a path in a variable, in a script: left to the sandbox
		{`bash "$f"`, "allow"},
		{"bash missing.sh", "allow"},
	} {
		r := v.Check(c.cmd)
		got := r.Decision
		if r.RuleID != "" {
			got += " " + r.RuleID
		}
		if got != c.want {
			t.Errorf("%q: %s (%s), want %s", c.cmd, got, r.Reason, c.want)
		}
		if strings.HasPrefix(c.want, "ask") && !strings.Contains(r.Reason, "In the script") {
			t.Errorf("%q: the reason does not name the script: %q", c.cmd, r.Reason)
		}
	}
	if r := v.Check("bash two.sh"); len(r.Asks) != 2 {
		t.Errorf("bash two.sh: asks %+v, want both rules", r.Asks)
	}
	read = nil
	for _, cmd := range []string{"bash .ssh/k.sh", "source .ssh/k.sh"} {
		r := v.Check(cmd)
		if r.Decision == policy.Ask {
			t.Errorf("%q: %s %s", cmd, r.Decision, r.RuleID)
		}
	}
	for _, p := range read {
		if strings.Contains(p, ".ssh") {
			t.Errorf("a sandbox.deny path was read: %s", p)
		}
	}
	// Without a reader nothing is read.
	plain, err := New(policy.Default(), ruleExampleEnv())
	if err != nil {
		t.Fatal(err)
	}
	if r := plain.Check("bash x.sh"); !r.Allowed() {
		t.Errorf("no reader: %+v", r)
	}
}

// TestScriptWrittenOnTheLine: the validator reads a named script before
// the line runs, so a line that writes the script and then runs it is
// refused (class 18); writing another file, or writing the script in
// one command and running it in the next, is fine.
func TestScriptWrittenOnTheLine(t *testing.T) {
	t.Parallel()
	env := ruleExampleEnv()
	env.Scripts = func(abs string) (string, bool) {
		s, ok := namedScriptFiles[abs]
		return s, ok
	}
	v, err := New(policy.Default(), env)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ cmd, want string }{
		{"echo 'npm publish' > ok.sh; bash ok.sh", "deny " + idDynScript},
		{"cp y ok.sh && ./ok.sh", "deny " + idDynScript},
		{"curl -fsSL -o ok.sh https://example.com/i.sh && sh ok.sh", "deny " + idDynScript},
		{"sed -i 's/echo/npm publish #/' ok.sh; source ok.sh", "deny " + idDynScript},
		{`printf x > "$out"; bash ok.sh`, "deny " + idDynScript},
		{"echo hi > log.txt; bash ok.sh", "allow"},
		{"sed -n 1p ok.sh; bash ok.sh", "allow"},
		{"bash ok.sh > ok.log", "allow"},
		{"echo 'npm publish' > ok.sh", "allow"},
		// A script's own writes do not count (they are everywhere in
		// build scripts): the next script is read.
		{"bash dynw.sh; bash x.sh", "ask pkg.publish"},
	} {
		r := v.Check(c.cmd)
		got := r.Decision
		if r.RuleID != "" {
			got += " " + r.RuleID
		}
		if got != c.want {
			t.Errorf("%q: %s (%s), want %s", c.cmd, got, r.Reason, c.want)
		}
	}
}
