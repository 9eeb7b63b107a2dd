// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// argv parses src as one simple command and decodes its words in the
// example environment.
func argv(t *testing.T, src string) ([]arg, *scope) {
	t.Helper()
	v := defaultValidator(t)
	f, err := v.parse(src)
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	return argvOf(t, v, f)
}

// argvOf decodes the first simple command of f.
func argvOf(t *testing.T, v *Validator, f *syntax.File) ([]arg, *scope) {
	t.Helper()
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok {
		t.Fatalf("not a simple command")
	}
	c := newChecker(v)
	sc := c.initialScope()
	var out []arg
	for _, w := range call.Args {
		out = append(out, c.decode(w, &sc)...)
	}
	return out, &sc
}

// show renders decoded args: dynamic ones as <prefix...>.
func show(args []arg) string {
	var s []string
	for _, a := range args {
		switch {
		case a.dyn:
			s = append(s, "<"+a.prefix+"...>")
		case a.glob:
			s = append(s, a.val+"(glob)")
		default:
			s = append(s, a.val)
		}
	}
	return strings.Join(s, " ")
}

func TestDecode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ src, want string }{
		{`c\at x`, "cat x"},
		{`"c"at x`, "cat x"},
		{`$'\x63at' x`, "cat x"},
		{`'git' "push" -f`, "git push -f"},
		{`cat ~/.ssh ~ ~/`, "cat /home/user/.ssh /home/user /home/user/"},
		{`cat $HOME/x "${HOME}/y" "$PWD"`, "cat /home/user/x /home/user/y /work/ws"},
		{`cat ~root/x ~+ ~-`, "cat <...> <...> <...>"},
		{`cat '~/x' ~"/x"`, "cat ~/x ~/x"},
		{`cat a=~/x b=~root/x`, "cat a=/home/user/x <...>"},
		{`cat /etc/{passwd,shadow}`, "cat /etc/passwd /etc/shadow"},
		{`echo {1..3}`, "echo 1 2 3"},
		{`echo {1..100}`, "echo <...>"},
		{`cat /et?/shad* '*' \*`, "cat /et?/shad*(glob) * *"},
		{`[ -f x ]`, "[ -f x ]"},
		{`echo @(a|b) x@(a|b)`, "echo <...> <x...>"},
		{`echo "a$x" "$HOME/$x" "$(id)b"`, "echo <a...> </home/user/...> <...>"},
		{`echo $x "$x" ${x:-y}`, "echo <...> <...> <...>"},
		{`rm -rf "$D"/x /$X build/$X ~/$X $HOME/x$Y`, "rm -rf <...> </...> <build/...> </home/user/...> </home/user/x...>"},
		{`echo $(id) $((1)) <(x)`, "echo <...> <...> <...>"},
		{`echo a\ b "a b"`, "echo a b a b"},
	} {
		args, _ := argv(t, tc.src)
		if got := show(args); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

func TestFlagPresent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		flag, cmd string
		want      bool
	}{
		{"-f", "git push -f", true},
		{"-f", "git push -xfd", true},
		{"-f", "git push --force", false},
		{"-f", "git push -- -f", false},
		{"-f", "git push -Cf", true},
		{"-f", "git push --f", false},
		{"-f", "git push -o=f", false},
		{"--force", "git push --force", true},
		{"--force", "git push --force=yes", true},
		{"--force", "git push --force-with-lease", false},
		{"--force", "git push -- --force", false},
		{"-exec", "find . -exec rm {} ;", true},
		{"-exec", "find . -execdir rm {} ;", false},
		{"-c=core.pager*", "git -c core.pager=less log", true},
		{"-c=core.pager*", "git -c CORE.PAGER=less log", true},
		{"-c=core.pager*", "git -ccore.pager=less log", true},
		{"-c=core.pager*", "git -c=core.pager=less log", true},
		{"-c=core.pager*", "git -pc core.pager=less log", true},
		{"-c=core.pager*", "git -c user.name=x log", false},
		{"-c=core.pager*", `git -c "$x" log`, true},
		{"-c=core.pager*", `git -c "user.$x" log`, false},
		{"-c=core.pager*", `git -c "core.$x" log`, true},
		{"-c=core.pager*", "git -c", false},
		{"--exec=*", "git rebase --exec 'make test'", true},
		{"--exec=*", "git rebase --exec=x", true},
		{"--exec=ma*", "git rebase --exec x", false},
	} {
		fs, err := parseFlagSpec(tc.flag)
		if err != nil {
			t.Fatal(err)
		}
		args, _ := argv(t, tc.cmd)
		s := scanArgs(args[0].val, args[1:])
		if got := flagPresent(fs, s.args[:s.end]); got != tc.want {
			t.Errorf("flag %s in %q: got %v, want %v", tc.flag, tc.cmd, got, tc.want)
		}
	}
}

func TestScanSub(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ cmd, sub, after string }{
		{"git push -f origin", "push", "origin"},
		{"git -C repo -c a=b --git-dir .git --work-tree=. push x", "push", "x"},
		{"git --no-pager -p log", "log", ""},
		{`git "$x" push a`, "push", "a"},
		{"git", "", ""},
		{"git -C", "", ""},
		{"git checkout -- .", "checkout", "."},
		{"git -- push", "push", ""},
		{"rm -rf -- -x y", "-x", "y"},
		{"kubectl -n ns delete pod", "delete", "pod"},
		{"kubectl --context prod -v 6 apply -f x", "apply", "x"},
		{"pulumi -C infra up", "up", ""},
		{"yarn --cwd pkg publish", "publish", ""},
		{"pnpm -r --filter web publish", "publish", ""},
		{"npm -g ls x", "ls", "x"},
		{"terraform -chdir=infra apply", "apply", ""},
	} {
		args, _ := argv(t, tc.cmd)
		s := scanArgs(args[0].val, args[1:])
		sub, after := "", []string{}
		if s.sub >= 0 {
			sub = s.args[s.pos[s.sub]].val
			for _, i := range s.pos[s.sub+1:] {
				after = append(after, s.args[i].text())
			}
		}
		if sub != tc.sub || strings.Join(after, " ") != tc.after {
			t.Errorf("%q: sub %q after %q, want %q %q", tc.cmd, sub, after, tc.sub, tc.after)
		}
	}
}

func TestRulePaths(t *testing.T) {
	t.Parallel()
	pr := &policy.Rule{ID: "t", Decision: policy.Deny, Command: "rm", Reason: "r",
		Paths: []string{"/", "~", "${workspace}"}}
	r, err := compileRule(pr, ruleExampleEnv())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd   string
		want  bool
		setup func(*scope)
	}{
		{cmd: "rm /", want: true},
		{cmd: "rm /*", want: true},
		{cmd: "rm ~/", want: true},
		{cmd: "rm ~/.*", want: true},
		{cmd: "rm ~/*.*", want: true},
		{cmd: "rm ~/x", want: false},
		{cmd: "rm /home", want: true},
		{cmd: "rm /work/ws/", want: true},
		{cmd: "rm /work/ws/x", want: false},
		{cmd: "rm .", want: true},
		{cmd: "rm ..", want: true},
		{cmd: "rm ./x/..", want: true},
		{cmd: "rm build", want: false},
		{cmd: "rm /w*", want: true},
		{cmd: "rm /x*", want: false},
		{cmd: "rm /.*", want: true},
		{cmd: `rm "$X"`, want: true},
		{cmd: `rm /$X`, want: true},
		{cmd: `rm foo$X`, want: true},
		{cmd: `rm build/$X`, want: false},
		{cmd: `rm ~/$X`, want: true},
		{cmd: `rm /tmp/$X`, want: false},
		{cmd: `rm -- -x`, want: false},
		{cmd: "rm .", want: true, setup: func(s *scope) { s.cwdOK = false }},
		{cmd: "rm ../x", want: true, setup: func(s *scope) { s.cwdOK = false }},
		{cmd: "rm x", want: false, setup: func(s *scope) { s.cwdOK = false }},
		{cmd: "rm x", want: false, setup: func(s *scope) { s.cwd = "/" }},
		{cmd: "rm .", want: true, setup: func(s *scope) { s.cwd = "/" }},
		{cmd: "rm user", want: true, setup: func(s *scope) { s.cwd = "/home" }},
	} {
		args, sc := argv(t, tc.cmd)
		if tc.setup != nil {
			tc.setup(sc)
		}
		s := scanArgs("rm", args[1:])
		if got := r.match("rm", &s, sc); got != tc.want {
			t.Errorf("%q: got %v, want %v", tc.cmd, got, tc.want)
		}
	}
}

func TestPathHelpers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b          string
		within, cover bool
	}{
		{"/home/user/.ssh", "/home/user/.ssh", true, true},
		{"/home/user/.ssh/id", "/home/user/.ssh", true, false},
		{"/home/user/.sshfoo", "/home/user/.ssh", false, false},
		{"/home/user", "/home/user/.ssh", false, true},
		{"/", "/home", false, true},
		{"/home/user/.ss*", "/home/user/.ssh", true, true},
		{"/home/user/*", "/home/user/.ssh", false, false},
		{"/home/user/.*/x", "/home/user/.ssh", true, false},
		{"/home/**", "/home/user/.ssh", true, true},
		{"/home/user/[.]ssh", "/home/user/.ssh", false, false},
		{"/et?/shadow", "/etc/shadow", true, true},
		{"/etc/[!p]*", "/etc/shadow", true, true},
		{"/etc/[!s]*", "/etc/shadow", false, false},
		{"/x", "/y/*", false, false},
		{"/y/z", "/y/*", true, true},
	} {
		a, b := splitPath(tc.a), splitPath(tc.b)
		if got := patternWithin(a, b); got != tc.within {
			t.Errorf("patternWithin(%s, %s) = %v", tc.a, tc.b, got)
		}
		if got := covers(a, b); got != tc.cover {
			t.Errorf("covers(%s, %s) = %v", tc.a, tc.b, got)
		}
	}
	for in, want := range map[string]string{"/*": "/", "*": ".", "a/.*": "a", "a/*.*": "a", "a/b*": "a/b*", "a/*/b": "a/*/b"} {
		if got := trimGlobDir(in); got != want {
			t.Errorf("trimGlobDir(%q) = %q, want %q", in, got, want)
		}
	}
	sc := &scope{home: "/h", homeOK: true}
	for in, want := range map[string]string{
		"x":            "x",
		"--file=~/a":   "--file=~/a /h/a",
		"-f/etc/p":     "-f/etc/p /etc/p",
		"-o=x":         "-o=x x =x",
		"if=~/.ssh/id": "if=~/.ssh/id /h/.ssh/id",
		"-rf":          "-rf f",
	} {
		if got := strings.Join(pathCandidates(in, sc), " "); got != want {
			t.Errorf("pathCandidates(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCouldMatch(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		glob, prefix string
		want         bool
	}{
		{"core.pager*", "", true},
		{"core.pager*", "core.", true},
		{"core.pager*", "core.pagerx", true},
		{"core.pager*", "user.", false},
		{"core.pager", "core.pager=", false},
		{"*.textconv*", "user.name=", true},
		{"filter.*", "filter.", true},
		{"filter.*", "filte", true},
		{"a?c*", "abc", true},
		{"a?c*", "abd", false},
		{"[ab]x*", "bx", true},
		{"[ab]x*", "cx", false},
		{`\*x`, "*", true},
		{`\*x`, "y", false},
	} {
		if got := couldMatch(tc.glob, tc.prefix); got != tc.want {
			t.Errorf("couldMatch(%q, %q) = %v, want %v", tc.glob, tc.prefix, got, tc.want)
		}
	}
}

func TestParseOpts(t *testing.T) {
	t.Parallel()
	spec := optSpec{vals: "nC", optVals: "i", longVals: []string{"--chdir"}}
	for _, tc := range []struct{ cmd, opts, rest string }{
		{"w -n 5 -x cmd a", "-n=5 -x", "cmd a"},
		{"w -n5 -xC/tmp cmd", "-n=5 -x -C=/tmp", "cmd"},
		{"w --chdir /tmp --other=1 --flag cmd", "--chdir=/tmp --other=1 --flag", "cmd"},
		{"w -i -ifoo cmd", "-i -i=foo", "cmd"},
		{"w -- -n cmd", "", "-n cmd"},
		{"w - cmd", "", "- cmd"},
		{`w "$o" cmd`, "<dyn>", "<dyn> cmd"},
		{`w -"$o" cmd`, "-", "cmd"},
		{"w -n", "-n", ""},
	} {
		args, _ := argv(t, tc.cmd)
		opts, i := parseOpts(args[1:], spec)
		var got []string
		for _, o := range opts {
			s := o.name
			if o.hasVal {
				s += "=" + o.val.text()
			}
			got = append(got, s)
		}
		var rest []string
		for _, a := range args[1+i:] {
			if a.dyn {
				rest = append(rest, "<dyn>")
			} else {
				rest = append(rest, a.val)
			}
		}
		g := strings.Join(got, " ")
		if tc.opts == "<dyn>" {
			tc.opts, tc.rest = "", "<dyn> cmd"
		}
		if g != tc.opts || strings.Join(rest, " ") != tc.rest {
			t.Errorf("%q: opts %q rest %q, want %q %q", tc.cmd, g, rest, tc.opts, tc.rest)
		}
	}
}

func TestCommandAlternatives(t *testing.T) {
	t.Parallel()
	r, err := compileRule(&policy.Rule{ID: "t", Decision: policy.Deny, Command: "{sudo,su,mkfs*}", Reason: "r"}, Env{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range []string{"sudo", "su", "mkfs", "mkfs.ext4", "sudoku", "s", ""} {
		if r.matchCommand(n) {
			got = append(got, n)
		}
	}
	if want := []string{"sudo", "su", "mkfs", "mkfs.ext4"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if fmt.Sprint(braceAlternatives("a{b,c}")) != "[a{b,c}]" {
		t.Error("a brace list that is not the whole pattern is one glob")
	}
}

func TestHasGlob(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{"*": true, "a?": true, "[ab]": true, "[": false, "[[": false,
		`\*`: false, `a\?b`: false, "x]": false, "~": false} {
		if got := hasGlob(in); got != want {
			t.Errorf("hasGlob(%q) = %v", in, got)
		}
	}
}
