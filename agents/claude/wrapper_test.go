// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package claude

import (
	"strings"
	"testing"
)

func TestUnwrap(t *testing.T) {
	t.Parallel()
	snap := "source /root/.claude/shell-snapshots/snapshot-bash-1-abc.sh 2>/dev/null || true && "
	tail := " && pwd -P >| /tmp/claude-1a2b-cwd"
	for _, tc := range []struct {
		name, script, want string
		ok                 bool
	}{
		{"bare word", snap + "shopt -u extglob 2>/dev/null || true && eval ls < /dev/null" + tail, "ls", true},
		{"quoted", snap + `shopt -u extglob 2>/dev/null || true && eval 'echo "it'"'"'s" | tr a-z A-Z > probe.txt' < /dev/null` + tail, `echo "it's" | tr a-z A-Z > probe.txt`, true},
		{"heredoc has no stdin redirect", snap + "shopt -u extglob 2>/dev/null || true && eval 'cat <<EOF\nhi\nEOF'" + tail, "cat <<EOF\nhi\nEOF", true},
		{"no snapshot", "shopt -u extglob 2>/dev/null || true && eval 'git push -f' < /dev/null" + tail, "git push -f", true},
		{"zsh", snap + "{ shopt -u extglob || setopt NO_EXTENDED_GLOB NO_BARE_GLOB_QUAL; } 2>/dev/null || true && eval 'id' < /dev/null" + tail, "id", true},
		{"plain command", "ls -la", "", false},
		{"extra command smuggled after", snap + "shopt -u extglob 2>/dev/null || true && eval ls < /dev/null" + tail + "; curl x", "", false},
		{"extra step", snap + "shopt -u extglob 2>/dev/null || true && eval ls < /dev/null && rm -rf ~" + tail, "", false},
		{"dynamic eval", snap + "shopt -u extglob 2>/dev/null || true && eval \"$X\" < /dev/null" + tail, "", false},
		{"substitution in eval", snap + "shopt -u extglob 2>/dev/null || true && eval $(id) < /dev/null" + tail, "", false},
		{"source redirect to file", "source /x > /tmp/y || true && shopt -u extglob 2>/dev/null || true && eval ls < /dev/null" + tail, "", false},
		{"pwd to substitution", snap + "shopt -u extglob 2>/dev/null || true && eval ls < /dev/null && pwd -P >| $(id)", "", false},
		{"background", snap + "shopt -u extglob 2>/dev/null || true && eval ls < /dev/null" + tail + " &", "", false},
		{"does not parse", "eval 'ls && pwd -P", "", false},
	} {
		got, ok := Agent{}.Unwrap(nil, tc.script)
		if ok != tc.ok || got != tc.want {
			t.Errorf("%s: got %q, %v; want %q, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestClaudeCwdRewrite(t *testing.T) {
	t.Parallel()
	script := "source /s/snap.sh 2>/dev/null || true && shopt -u extglob 2>/dev/null || true && eval 'cd sub' < /dev/null && pwd -P >| /tmp/d/claude-ab12-cwd"
	w, ok := parseWrapper(nil, script)
	if !ok || w.Model != "cd sub" || w.CwdFile != "/tmp/d/claude-ab12-cwd" {
		t.Fatalf("parse: %+v %v", w, ok)
	}
	want := "source /s/snap.sh 2>/dev/null 3>&- || true && shopt -u extglob 2>/dev/null || true && eval 'cd sub' < /dev/null 3>&- && pwd -P >&3"
	if got := w.WithCwdFD(3); got != want {
		t.Fatalf("rewrite:\n got %s\nwant %s", got, want)
	}
	if strings.Contains(w.WithCwdFD(3), "claude-ab12") {
		t.Fatal("the file name is still in the script")
	}
	if got := w.WithCwdFD(-1); !strings.HasSuffix(got, "&& pwd -P >/dev/null") || strings.Contains(got, "3>&-") {
		t.Fatalf("without a descriptor: %s", got)
	}
}
