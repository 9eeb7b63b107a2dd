// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"os"
	"strings"
)

// moduleConfigCopies replaces, in ms, the read-only bind of each
// submodule git directory's config that sets core.worktree with a bind
// of a private copy without it, and returns the copies to remove after
// the sandbox exits. `git submodule update` rewrites core.worktree of
// every submodule that has it (git 2.39, ensure_core_worktree), which a
// read-only config refuses; without the key git leaves the file alone,
// and the submodule's work tree is still found through its .git file.
// The host's file is never changed.
func moduleConfigCopies(ms []Mount) []string {
	var tmps []string
	dir := ""
	for i, m := range ms {
		if m.Kind != ROBind || m.Src != m.Dst || !strings.HasSuffix(m.Dst, "/config") || !strings.Contains(m.Dst, "/.git/modules/") {
			continue
		}
		data, err := os.ReadFile(m.Src)
		if err != nil {
			continue
		}
		out, changed := withoutCoreWorktree(string(data))
		if !changed {
			continue
		}
		if dir == "" {
			if dir = privateDir(); dir == "" {
				return tmps
			}
		}
		f, err := os.CreateTemp(dir, "module-config-")
		if err != nil {
			return tmps
		}
		_, werr := f.WriteString(out)
		if cerr := f.Close(); werr != nil || cerr != nil {
			os.Remove(f.Name())
			continue
		}
		ms[i].Src = f.Name()
		tmps = append(tmps, f.Name())
	}
	return tmps
}

// withoutCoreWorktree drops the worktree key of the [core] sections of
// a git config file, line by line (git writes one key per line).
func withoutCoreWorktree(cfg string) (string, bool) {
	var b strings.Builder
	inCore, changed := false, false
	for _, line := range strings.SplitAfter(cfg, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			sec := strings.ToLower(strings.TrimSpace(strings.Trim(t, "[]")))
			inCore = sec == "core"
		} else if inCore {
			k, _, _ := strings.Cut(t, "=")
			if strings.EqualFold(strings.TrimSpace(k), "worktree") {
				changed = true
				continue
			}
		}
		b.WriteString(line)
	}
	return b.String(), changed
}

// writeGitHome fills s.GitHome: the sanitized copy of the user's global
// git configuration ([userGitConfig]) in a private file, which it
// returns for removal after the sandbox exits ("" for none). A session
// makes it once, when its sandbox starts; a command of its own, per
// command.
func writeGitHome(s *Spec) string {
	content, read := userGitConfig(*s)
	if content == "" {
		return ""
	}
	dir := privateDir()
	if dir == "" {
		return ""
	}
	f, err := os.CreateTemp(dir, "gitconfig-")
	if err != nil {
		return ""
	}
	_, werr := f.WriteString(content)
	if cerr := f.Close(); werr != nil || cerr != nil {
		os.Remove(f.Name())
		return ""
	}
	s.GitHome = gitHome{Config: f.Name(), Read: read}
	return f.Name()
}
