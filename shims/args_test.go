// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"errors"
	"slices"
	"testing"
)

func TestParseArgs(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		cmd    string
		login  bool
		params []string
		bad    bool
	}{
		{args: []string{"-c", "echo hi"}, cmd: "echo hi"},
		{args: []string{"-lc", "echo hi"}, cmd: "echo hi", login: true},
		{args: []string{"-cl", "echo hi"}, cmd: "echo hi", login: true},
		{args: []string{"-c", "-l", "echo hi"}, cmd: "echo hi", login: true},
		{args: []string{"-l", "-c", "echo hi"}, cmd: "echo hi", login: true},
		{args: []string{"--login", "-c", "echo hi"}, cmd: "echo hi", login: true},
		{args: []string{"-c", "env"}, cmd: "env"},
		{args: []string{"-c", "echo $0 $1", "zero", "one"}, cmd: "echo $0 $1", params: []string{"zero", "one"}},
		{args: []string{"-c", "--", "-x"}, cmd: "-x"},
		{args: []string{"source /x && eval ls && pwd -P >| /tmp/c"}, cmd: "source /x && eval ls && pwd -P >| /tmp/c"},
		{args: nil, bad: true},
		{args: []string{"-i"}, bad: true},
		{args: []string{"-c"}, bad: true},
		{args: []string{"-x", "-c", "id"}, bad: true},
		{args: []string{"script.sh", "arg"}, bad: true},
		{args: []string{"-l"}, bad: true},
		{args: []string{"--rcfile", "x", "-c", "id"}, bad: true},
	} {
		inv, err := ParseArgs(tc.args)
		if tc.bad {
			if !errors.Is(err, ErrUsage) {
				t.Errorf("%q: err = %v, want ErrUsage", tc.args, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if inv.Command != tc.cmd || inv.Login != tc.login || !slices.Equal(inv.Params, tc.params) {
			t.Errorf("%q: got %+v", tc.args, inv)
		}
	}
}
