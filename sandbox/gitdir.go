// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
	"github.com/lite-sandbox/lite-sandbox/sandbox/git"
)

// A git directory is protected by default: every entry that exists when
// the sandbox starts stays read-only unless git writes it in ordinary
// work (gitrepository-layout(5): objects, refs, logs, packed-refs, the
// index, HEAD and the other *_HEAD, messages, merge, rebase and
// sequencer state, lock files, shallow, gc.pid, ...), and the control
// files git would read if they appeared (config, config.worktree,
// commondir, hooks, info) get read-only placeholders. The git directory
// itself stays writable: git creates HEAD.lock, index.lock, ... beside
// the file and renames it over, which neither a read-only directory nor
// a file mount point allows. Escape classes 9, 10: the host's next
// `git status` reads config, commondir (a redirect to another git
// directory's config) and runs hooks, fsmonitor and filters.

// gitWritableName reports whether git writes the top-level entry name
// of a repository's git directory (perWorktree: of a linked worktree's
// own directory, .git/worktrees/NAME) in ordinary work.
func gitWritableName(name string, perWorktree bool) bool {
	switch name {
	case "HEAD", "index", "logs", "AUTO_MERGE", "sequencer", "rebase-merge", "rebase-apply",
		"locked", "shallow":
		return true
	case "objects", "refs", "packed-refs", "description", "rr-cache", "gc.pid", "gc.log",
		"lfs", "annex", "modules", "worktrees":
		return !perWorktree
	}
	for _, suffix := range []string{"_HEAD", "_MSG", "EDITMSG", ".lock", "_MODE", "_RR"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	for _, prefix := range []string{"BISECT_", "MERGE_", "NOTES_MERGE_", "sharedindex.", "fsmonitor--daemon"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// gitPlaceholders are the control files a repository's git directory
// gets a placeholder for when they are missing (a trailing "/" makes it a
// directory). A placeholder commondir holds "." (see placeholderContent):
// git dies on an empty one, and "." names the directory itself, which is
// what no commondir means.
var gitPlaceholders = []string{"config", "config.worktree", "commondir", "hooks/", "info/"}

// GitControl returns the protected entries of the repository git
// directory dir (the workspace's .git, a submodule's .git/modules/NAME,
// a main repository's common directory), its submodules' git directories
// and its linked worktrees' own directories, read from the host now.
func GitControl(dir string) []Protected {
	return gitControl(dir, false, 0)
}

func gitControl(dir string, perWorktree bool, depth int) []Protected {
	ents, err := os.ReadDir(dir)
	if err != nil || depth > git.MaxDepth {
		return nil
	}
	var out []Protected
	have := map[string]bool{}
	for _, e := range ents {
		name := e.Name()
		have[name] = true
		p := filepath.Join(dir, name)
		switch {
		case !perWorktree && name == "modules" && e.IsDir():
			out = append(out, moduleControl(p, depth+1)...)
		case !perWorktree && name == "worktrees" && e.IsDir():
			wts, _ := os.ReadDir(p)
			for _, w := range wts {
				if w.IsDir() {
					out = append(out, gitControl(filepath.Join(p, w.Name()), true, depth+1)...)
				} else {
					out = append(out, Protected{Path: filepath.Join(p, w.Name())})
				}
			}
		case gitWritableName(name, perWorktree):
		default:
			out = append(out, Protected{Path: p, Dir: e.IsDir()})
		}
	}
	want := gitPlaceholders
	if perWorktree {
		want = []string{"config.worktree"}
	}
	for _, w := range want {
		name := strings.TrimSuffix(w, "/")
		if !have[name] {
			out = append(out, Protected{Path: filepath.Join(dir, name), Dir: name != w})
		}
	}
	return out
}

// moduleControl walks .git/modules, where a submodule named "a/b" has
// its git directory at modules/a/b.
func moduleControl(dir string, depth int) []Protected {
	if depth > git.MaxDepth {
		return nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []Protected
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		switch {
		case !e.IsDir():
			out = append(out, Protected{Path: p})
		case git.IsDir(p):
			out = append(out, gitControl(p, false, depth+1)...)
		default:
			out = append(out, moduleControl(p, depth+1)...)
		}
	}
	return out
}

// jsonPlaceholder is the content of a placeholder for a JSON file.
const jsonPlaceholder = "{}\n"

// placeholderContent is what a placeholder file holds, on the host (which
// sees the mount point while the sandbox runs) and inside.
func placeholderContent(p string) string {
	switch {
	case strings.HasSuffix(p, ".json"):
		// Agents on the host parse these files (.mcp.json, crush.json):
		// an empty file is invalid JSON, an empty object means "nothing
		// configured".
		return jsonPlaceholder
	case filepath.Base(p) == "commondir" && strings.Contains(p, "/.git/"):
		return ".\n"
	}
	if c, ok := homePlaceholder[filepath.Base(p)]; ok {
		return c
	}
	return ""
}

// protectGitDir protects the workspace's own .git directory. A missing
// info/exclude is created first, as `git init` would: info is read-only
// inside, and the runner binds a copy of exclude that hides the
// placeholders from git, which needs the file as a mount point.
func protectGitDir(s *Spec, dotgit string) {
	info := filepath.Join(dotgit, "info")
	if _, err := os.Lstat(info); os.IsNotExist(err) {
		if os.Mkdir(info, 0o755) == nil {
			if f, err := os.OpenFile(filepath.Join(info, "exclude"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); err == nil {
				f.Close()
			}
		}
	}
	for _, pr := range append(GitControl(dotgit), checkoutGitFiles(s.Workspace, dotgit)...) {
		s.Protect = appendProtected(s.Protect, pr)
	}
}

// addProtect adds a control file of a git directory outside the
// workspace: an existing one is bound read-only, a missing one gets a
// placeholder.
func (g *gitDirs) addProtect(pr Protected) {
	if _, err := os.Lstat(pr.Path); err == nil {
		g.Protect = append(g.Protect, pr.Path)
		return
	}
	g.Placeholders = appendProtected(g.Placeholders, pr)
}

// gitPlaceholderMounts mounts placeholders for the missing control files
// of a git directory outside the workspace, where its parent exists.
func gitPlaceholderMounts(ph []Protected, fsys FS) []Mount {
	var ms []Mount
	for _, pr := range ph {
		if _, err := fsys.Lstat(pr.Path); err == nil {
			continue
		}
		if fi, err := fsys.Lstat(filepath.Dir(pr.Path)); err != nil || !fi.IsDir() {
			continue
		}
		kind := PlaceholderFile
		if pr.Dir {
			kind = PlaceholderDir
		}
		ms = append(ms, Mount{Kind: kind, Dst: pr.Path})
	}
	return ms
}

// checkoutGitFiles returns the .git files of the workspace's submodule
// checkouts (paths from .gitmodules) and linked worktrees (from
// .git/worktrees/*/gitdir) that exist now: each names the git directory
// the host's git uses there, and `git status` in the workspace recurses
// into submodules.
func checkoutGitFiles(ws, dotgit string) []Protected {
	var out []Protected
	add := func(p string) {
		p = filepath.Clean(p)
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() && hostpath.Within(p, ws) {
			out = append(out, Protected{Path: p})
		}
	}
	if data, err := os.ReadFile(filepath.Join(ws, ".gitmodules")); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
			if ok && strings.TrimSpace(k) == "path" {
				if rel := strings.Trim(strings.TrimSpace(v), `"`); rel != "" && !filepath.IsAbs(rel) {
					add(filepath.Join(ws, rel, ".git"))
				}
			}
		}
	}
	wts, _ := os.ReadDir(filepath.Join(dotgit, "worktrees"))
	for _, w := range wts {
		if data, err := os.ReadFile(filepath.Join(dotgit, "worktrees", w.Name(), "gitdir")); err == nil {
			if p := strings.TrimSpace(string(data)); filepath.IsAbs(p) {
				add(p)
			}
		}
	}
	return out
}
