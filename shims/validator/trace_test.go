// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"slices"
	"testing"
)

func TestTrace(t *testing.T) {
	t.Parallel()
	env := Env{Workspace: "/w", Home: "/home/u", Cwd: "/w"}
	calls, writes := Trace(`cd sub && nice -n 5 env X=1 sh -c 'touch "a b" > ~/log; cp x "$OUT"'`, env)
	var touch, cp *Call
	for i := range calls {
		switch calls[i].Argv[0] {
		case "touch":
			touch = &calls[i]
		case "cp":
			cp = &calls[i]
		}
	}
	if touch == nil || !slices.Equal(touch.Argv, []string{"touch", "a b"}) || touch.Dir != "/w/sub" {
		t.Errorf("touch call = %+v (calls %+v)", touch, calls)
	}
	if cp == nil || !slices.Equal(cp.Argv, []string{"cp", "x", ""}) {
		t.Errorf("cp call = %+v: a word computed at run time is empty", cp)
	}
	if want := []Write{{Path: "/home/u/log", Dir: "/w/sub"}}; !slices.Equal(writes, want) {
		t.Errorf("writes = %+v, want %+v", writes, want)
	}
	if c, w := Trace("echo 'unterminated", env); c != nil || w != nil {
		t.Errorf("a command that does not parse traced to %v %v", c, w)
	}
}
