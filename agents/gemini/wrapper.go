// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package gemini

import (
	"regexp"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// wrapperHead and wrapperTail are what Gemini CLI 0.61.0 puts around the
// model's command (measured in its bundle: ensurePromptvarsDisabled and
// wrapCommandForBackgroundPIDs, whose temp file is
// <tmpdir>/gemini-shell-XXXXXX/bgpids.tmp):
//
//	shopt -u promptvars nullglob extglob nocaseglob dotglob; _bgpids_file=FILE
//	(
//	  trap 'jobs -p > "$_bgpids_file"' EXIT
//	CMD
//	)
//	__code=$?
//	exit $__code
//
// The head is compiled on first use: every shim links the adapters.
var wrapperHead = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\Ashopt -u promptvars nullglob extglob nocaseglob dotglob; _bgpids_file=('?)/[A-Za-z0-9_./-]*/gemini-shell-[A-Za-z0-9]+/bgpids\.tmp('?)\n\(\n  trap 'jobs -p > "\$_bgpids_file"' EXIT\n`)
})

const wrapperTail = "\n)\n__code=$?\nexit $__code"

// Unwrap implements [agents.Unwrapper]: the model's command inside
// Gemini's wrapper, so that the validator judges and explains that
// command rather than the wrapper (whose redirect of the trap would
// otherwise make every `./script` a script written before it runs). The
// rest of the wrapper is fixed text; the command must parse alone, so
// that it cannot close the subshell and put statements outside it that
// nobody judged. Anything else returns ok == false, and the shim judges
// the whole script.
func (Agent) Unwrap(_ *syntax.File, script string) (string, bool) {
	if !strings.HasPrefix(script, "shopt -u promptvars") || !strings.HasSuffix(script, wrapperTail) {
		return "", false
	}
	m := wrapperHead().FindStringSubmatchIndex(script)
	if m == nil || script[m[2]:m[3]] != script[m[4]:m[5]] {
		return "", false
	}
	if m[1] > len(script)-len(wrapperTail) {
		return "", false
	}
	cmd := script[m[1] : len(script)-len(wrapperTail)]
	if strings.TrimSpace(cmd) == "" {
		return "", false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil || len(f.Stmts) == 0 {
		return "", false
	}
	return cmd, true
}
