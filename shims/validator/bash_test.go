// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// TestDecodeMatchesBash is a small differential test (docs/validator.md
// §8): for words the validator decodes statically, real bash must produce
// the same argv. A divergence here is a class 3 or 13 bypass.
func TestDecodeMatchesBash(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed; the differential test needs it")
	}
	home, ws := t.TempDir(), t.TempDir()
	v, err := compile(policy.Default(), Env{Workspace: ws, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	for _, words := range []string{
		`c\at "c"at $'\x63at' 'c'"a"t`,
		`~ ~/x ~/.ssh "$HOME" ${HOME}/y "$PWD" $PWD/z`,
		`'~/x' ~"/x" \~/x`,
		`/etc/{passwd,shadow} {a,b}{c,d} x{1..3}y {a,{b,c}} '{a,b}' \{a,b\}`,
		`a\ b "a b" 'a'\''b' $'a\tb\n' $'\u00e9' $'\101'`,
		`-f/x --file=~/y a=b a=~/x b=~/x:~:y:~/z c=x~ --x=~ 1a=~`,
		`"\$x" "\\" '\\' \\ \" "a\"b"`,
		`/no-such-dir/* /no-such-dir/?x /no-such-dir/[ab]`,
		`'' "" x""y`,
	} {
		f, err := v.parse("printf '%s\\0' " + words)
		if err != nil {
			t.Fatalf("%s: %v", words, err)
		}
		args, _ := argvOf(t, v, f)
		var want []string
		for _, a := range args[2:] {
			if a.dyn {
				t.Fatalf("%s: %q is dynamic, the test needs static words", words, a.word)
			}
			want = append(want, a.val)
		}
		cmd := exec.Command(bash, "--noprofile", "--norc", "-c", "printf '%s\\0' "+words)
		cmd.Dir = ws
		// A UTF-8 locale, as the sandbox passes LANG: in the C locale bash
		// leaves $'\u00e9' as the text \u00E9.
		cmd.Env = []string{"HOME=" + home, "PWD=" + ws, "PATH=" + os.Getenv("PATH"), "LC_ALL=C.UTF-8"}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: bash: %v", words, err)
		}
		got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s:\nbash:      %q\nvalidator: %q", words, got, want)
		}
	}
}
