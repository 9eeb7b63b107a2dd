// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"os/exec"
	"slices"
	"testing"
	"time"
)

// TestJudgedArgv: the shim under git's name stands for one command,
// `git ARGS...` quoted for the shell, run by bash -c in the command
// sandbox; under a shell's name it is the shell invocation itself.
func TestJudgedArgv(t *testing.T) {
	for _, tc := range []struct {
		argv      []string
		argv0     string
		args      []string
		judgedCmd string // the command the validator judges, for git
	}{
		{[]string{"git", "status"}, "bash", []string{"-c", "git status"}, "git status"},
		{[]string{"/usr/bin/git", "-C", "sub dir", "log", "--format=%H $x"}, "bash",
			[]string{"-c", `git -C 'sub dir' log '--format=%H $x'`}, `git -C 'sub dir' log '--format=%H $x'`},
		{[]string{"git", "commit", "-m", "it's; rm -rf ~"}, "bash",
			[]string{"-c", `git commit -m "it's; rm -rf ~"`}, `git commit -m "it's; rm -rf ~"`},
		{[]string{"git"}, "bash", []string{"-c", "git"}, "git"},
		// git's exec path holds git under dashed names (#25, class 59).
		{[]string{"/usr/lib/git-core/git-upload-pack", "/tmp/r"}, "bash", []string{"-c", "git upload-pack /tmp/r"}, "git upload-pack /tmp/r"},
		{[]string{"/usr/lib/git-core/git"}, "bash", []string{"-c", "git"}, "git"},
		// Positive control: a shell is passed on as it is.
		{[]string{"/bin/sh", "-c", "git status"}, "/bin/sh", []string{"-c", "git status"}, ""},
		{[]string{"/run/s-1/bin/bash", "-lc", "ls"}, "/run/s-1/bin/bash", []string{"-lc", "ls"}, ""},
		{[]string{"git-bash", "-c", "ls"}, "git-bash", []string{"-c", "ls"}, ""},
	} {
		argv0, args := judgedArgv(tc.argv)
		if argv0 != tc.argv0 || !slices.Equal(args, tc.args) {
			t.Errorf("judgedArgv(%q) = %q %q, want %q %q", tc.argv, argv0, args, tc.argv0, tc.args)
			continue
		}
		if tc.judgedCmd == "" {
			continue
		}
		inv, err := ParseArgsFor(argv0, args)
		if err != nil || inv.Form != FormCommand || inv.Command != tc.judgedCmd {
			t.Errorf("judgedArgv(%q): the shim parses %+v, %v; want the command %q", tc.argv, inv, err, tc.judgedCmd)
		}
	}
}

func TestShimTimes(t *testing.T) {
	env := []string{"A=1", "LITE_SANDBOX_SHIM_TIMES=1000,2000", "B=2"}
	rest, main, sent := shimTimes(env)
	if !slices.Equal(rest, []string{"A=1", "B=2"}) || !main.Equal(time.Unix(0, 1000)) || !sent.Equal(time.Unix(0, 2000)) {
		t.Errorf("shimTimes = %q, %v, %v", rest, main, sent)
	}
	if !slices.Equal(env, []string{"A=1", "LITE_SANDBOX_SHIM_TIMES=1000,2000", "B=2"}) {
		t.Errorf("shimTimes changed its argument: %q", env)
	}
}

// TestProcessAge: a process just started is young; pid 1 (started at
// boot, or with the container) is older than a process started after
// it; an unknown pid has no age.
func TestProcessAge(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	young, ok := processAge(cmd.Process.Pid)
	if !ok || young > hookFresh {
		t.Errorf("a process started just now: age %v, %v", young, ok)
	}
	if old, ok := processAge(1); !ok || old < young {
		t.Errorf("pid 1: age %v, %v (the new one: %v)", old, ok, young)
	}
	if _, ok := processAge(-5); ok {
		t.Errorf("an unknown pid has an age")
	}
}
