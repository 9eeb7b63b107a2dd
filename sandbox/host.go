// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
)

// gitTimeout bounds the one git call of [DetectHost].
const gitTimeout = 2 * time.Second

// DetectHost completes s with what only the host filesystem can say, at
// the start of a command or session:
//
//   - when the workspace is a linked worktree (its .git is a file
//     "gitdir: DIR"), the main repository's common directory is mounted
//     read-only with the parts git writes (the per-worktree directory,
//     objects, refs, logs, packed-refs) read-write, so that commits and
//     fetches work while config and hooks stay read-only (classes 9, 10);
//     the .git file and the per-worktree commondir are protected, since
//     either would redirect git to a config of the agent's choosing;
//   - the target of core.hooksPath, when it lies in the workspace, is
//     protected like .git/hooks, whether or not it exists (class 11);
//   - nothing at or below a path of [Spec.Unprotect] stays protected
//     (the user's sandbox.unprotect; class 61).
//
// It changes nothing when the workspace is not a git repository. Errors
// are not fatal: what cannot be read is left as it is. A spec it already
// completed is left alone.
func DetectHost(s *Spec) {
	if s.Workspace == "" || s.hostDetected {
		return
	}
	s.hostDetected = true
	defer func() { s.Protect = dropUnprotected(s.Protect, s.Unprotect) }()
	if s.CacheLayer == "" {
		s.CacheLayer = CacheLayerDir(s.Home, s.Workspace)
	}
	dotgit := path.Join(s.Workspace, ".git")
	fi, err := os.Lstat(dotgit)
	if err != nil {
		return
	}
	if fi.Mode().IsRegular() {
		s.Protect = appendProtected(s.Protect, Protected{Path: dotgit})
		detectWorktree(s, dotgit)
	} else if fi.IsDir() {
		protectGitDir(s, dotgit)
	}
	if !mayHaveHooksPath(s) {
		return
	}
	if hp := hooksPath(s.Workspace, s.Home); hp != "" && hostpath.Within(hp, s.Workspace) && hp != s.Workspace {
		s.Protect = appendProtected(s.Protect, Protected{Path: hp, Dir: true})
	}
}

// detectWorktree fills s.Git from a linked worktree's .git file.
func detectWorktree(s *Spec, dotgit string) {
	data, err := os.ReadFile(dotgit)
	if err != nil {
		return
	}
	line, _, _ := strings.Cut(string(data), "\n")
	gd, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return
	}
	gd = strings.TrimSpace(gd)
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(s.Workspace, gd)
	}
	gd, err = filepath.EvalSymlinks(gd)
	if err != nil {
		return
	}
	common := gd
	if c, err := os.ReadFile(filepath.Join(gd, "commondir")); err == nil {
		cd := strings.TrimSpace(string(c))
		if !filepath.IsAbs(cd) {
			cd = filepath.Join(gd, cd)
		}
		if real, err := filepath.EvalSymlinks(cd); err == nil {
			common = real
		}
	}
	if hostpath.Within(gd, s.Workspace) && hostpath.Within(common, s.Workspace) {
		// Everything is in the workspace already; the protect list
		// covers the .git file.
		return
	}
	s.Git.Common = common
	s.Git.Write = []string{gd}
	if common == gd {
		// No commondir: gd is a whole repository (a submodule checkout,
		// --separate-git-dir), writable with its control files read-only.
		s.Git.Write = []string{gd}
		s.Git.Common = ""
		for _, pr := range GitControl(gd) {
			s.Git.addProtect(pr)
		}
		return
	}
	for _, name := range []string{"objects", "refs", "logs", "packed-refs"} {
		p := filepath.Join(common, name)
		if _, err := os.Lstat(p); err == nil {
			s.Git.Write = append(s.Git.Write, p)
		}
	}
	for _, pr := range gitControl(gd, true, 0) {
		s.Git.addProtect(pr)
	}
}

// mayHaveHooksPath reads the config files git would read (a few small
// files, tens of microseconds) and says whether any of them could set
// core.hooksPath, so that git itself runs (milliseconds) only then. An
// include of another file counts as "could".
func mayHaveHooksPath(s *Spec) bool {
	files := []string{"/etc/gitconfig", filepath.Join(s.Workspace, ".git", "config")}
	if s.Git.Common == "" && len(s.Git.Write) > 0 {
		files = append(files, filepath.Join(s.Git.Write[0], "config"))
	}
	if s.Git.Common != "" {
		files = append(files, filepath.Join(s.Git.Common, "config"))
		for _, w := range s.Git.Write[:1] {
			files = append(files, filepath.Join(w, "config.worktree"))
		}
	}
	if s.Home != "" {
		files = append(files, filepath.Join(s.Home, ".gitconfig"), filepath.Join(s.Home, ".config", "git", "config"))
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		files = append(files, filepath.Join(x, "git", "config"))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		low := bytes.ToLower(data)
		if bytes.Contains(low, []byte("hookspath")) || bytes.Contains(low, []byte("include")) {
			return true
		}
	}
	return false
}

// hooksPath asks git for core.hooksPath as the host's git would see it
// in the workspace, and returns it as an absolute path, or "".
func hooksPath(ws, home string) string {
	git, err := exec.LookPath("git")
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, git, "-C", ws, "config", "--get", "core.hooksPath")
	// The user's git configuration counts (a global hooksPath may point
	// into the workspace), variables that point git elsewhere do not.
	env := []string{"PATH=/usr/local/bin:/usr/bin:/bin"}
	if home != "" {
		env = append(env, "HOME="+home)
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		env = append(env, "XDG_CONFIG_HOME="+x)
	}
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout = &out
	if cmd.Run() != nil {
		return ""
	}
	hp := strings.TrimSpace(out.String())
	switch {
	case hp == "":
		return ""
	case hp == "~" || strings.HasPrefix(hp, "~/"):
		if home == "" {
			return ""
		}
		hp = filepath.Join(home, hp[1:])
	case !filepath.IsAbs(hp):
		// Relative hook paths are relative to where hooks run: the top
		// of the working tree, which is the workspace here.
		hp = filepath.Join(ws, hp)
	}
	return filepath.Clean(hp)
}

// Clone is a copy of s whose lists are its own: appending to one never
// writes into s's. A launch builds its spec and reads the host once
// ([DetectHost]) and gives each of its users (the session's worker,
// the agent ring, the adapter's file rules) a clone (#29).
func (s Spec) Clone() Spec {
	c := s
	for _, l := range []*[]string{&c.System, &c.Etc, &c.Read, &c.Write, &c.Deny, &c.Tools, &c.Caches,
		&c.SharedCaches, &c.Unprotect, &c.Git.Write, &c.Git.Protect, &c.GitHome.Read} {
		*l = slices.Clone(*l)
	}
	c.Protect = slices.Clone(c.Protect)
	c.Git.Placeholders = slices.Clone(c.Git.Placeholders)
	return c
}
