// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
	"github.com/lite-sandbox/lite-sandbox/shims/validator"
)

// TestAt: one compiled validator judges each command at its own working
// directory, as the session's judge does, and the result is the one a
// validator compiled for that directory gives.
func TestAt(t *testing.T) {
	p := &policy.Policy{Version: policy.Version, Sandbox: policy.Sandbox{Lists: sandbox.Lists{Deny: []string{"~/.ssh"}}}, Shell: policy.Shell{MaxDepth: 8}}
	env := validator.Env{Workspace: "/work/ws", Home: "/home/user"}
	base, err := validator.New(p, env)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cwd, cmd string
		allowed  bool
	}{
		{"/home/user", "cat .ssh/id_ed25519", false},
		{"/work/ws", "cat .ssh/id_ed25519", true}, // positive control: the workspace's own .ssh
		{"", "cat .ssh/id_ed25519", true},         // "" is the workspace
		{"/home", "cat user/.ssh/config", false},
	} {
		v, err := base.At(tc.cwd)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := validator.New(p, validator.Env{Workspace: env.Workspace, Home: env.Home, Cwd: tc.cwd})
		if err != nil {
			t.Fatal(err)
		}
		got, want := v.Check(tc.cmd), fresh.Check(tc.cmd)
		if got.Allowed() != tc.allowed || !reflect.DeepEqual(got, want) {
			t.Errorf("At(%q).Check(%q) = %+v, want allowed=%v and %+v", tc.cwd, tc.cmd, got, tc.allowed, want)
		}
	}
	if _, err := base.At("relative"); err == nil {
		t.Error("At(relative) succeeded")
	}
}

// TestCheckTraced: the judging walk's trace is the one Trace reads
// (the explanations use it instead of parsing again), and the decision
// is Check's.
func TestCheckTraced(t *testing.T) {
	p := &policy.Policy{Version: policy.Version, Shell: policy.Shell{MaxDepth: 8}}
	env := validator.Env{Workspace: "/work/ws", Home: "/home/user", Cwd: "/work/ws"}
	v, err := validator.New(p, env)
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{
		"echo hi > out.txt",
		"cd sub && touch a b; mkdir -p ~/x",
		`bash -c 'cp x /etc/y' > log 2>&1`,
		"timeout 5 sh -c 'echo $((1+1)) >> ../n'",
		"true",
	} {
		res, tr := v.CheckTraced(cmd)
		calls, writes := validator.Trace(cmd, env)
		if !reflect.DeepEqual(res, v.Check(cmd)) {
			t.Errorf("CheckTraced(%q) = %+v, Check %+v", cmd, res, v.Check(cmd))
		}
		if fmt.Sprint(tr.Calls) != fmt.Sprint(calls) || fmt.Sprint(tr.Writes) != fmt.Sprint(writes) {
			t.Errorf("CheckTraced(%q) traced %v %v, Trace %v %v", cmd, tr.Calls, tr.Writes, calls, writes)
		}
		if len(tr.Calls) == 0 {
			t.Errorf("CheckTraced(%q) traced no call", cmd)
		}
	}
}
