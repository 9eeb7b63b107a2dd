// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
	"github.com/lite-sandbox/lite-sandbox/sandbox/settings"
)

// The user's git, as the sandbox shows it (issue #31). $HOME is a
// scratch directory inside, so without this git would have no identity
// ("Author identity unknown"), no aliases and none of the user's hooks,
// and following git's hint would commit under an identity the model made
// up. So the sandbox sees, read-only at ~/.gitconfig, a copy of the
// user's global configuration (~/.gitconfig and $XDG_CONFIG_HOME/git/config,
// includes and includeIfs resolved by the host's git for the workspace)
// that keeps only an allow-list of keys: identity, aliases, the settings
// that make git behave as on the host, and the paths of the user's global
// hooks, excludes and attributes files, which are bound read-only at
// themselves. Credential helpers, http.* (extraHeader tokens, proxies),
// URLs with user information and signing stay out. A `git config
// --global` inside fails on the read-only file, so every commit keeps
// the user's identity. Programs the copy names (aliases with "!", hooks,
// filters, the editor) are the user's own and run inside the sandbox.
// The reading and the filter are package settings' (git.go); this file
// decides which paths the copy names are bound, and binds them.

// gitHome is the part of [Spec] made from the user's global git
// configuration; see [userGitConfig].
type gitHome struct {
	// Config is a private host file holding the sanitized copy, bound
	// read-only at ~/.gitconfig ("" for none).
	Config string
	// Read lists the host paths the copy names that git reads (the
	// global hooks directory, the excludes, attributes and commit
	// template files), bound read-only at themselves.
	Read []string
}

func (g gitHome) paths() []string {
	if g.Config == "" {
		return g.Read
	}
	return append([]string{g.Config}, g.Read...)
}

// userGitConfig reads the user's global git configuration with the
// host's git, as git in the workspace would read it (includes followed,
// includeIf conditions judged for the workspace), and returns the
// sanitized copy and the host paths it names that git reads. It returns
// "" when there is no home to stand in for, or when the home is inside
// the workspace (the real file is visible there, see [Degraded]).
func userGitConfig(s Spec) (string, []string) {
	if s.Home == "" || s.Home == "/" || hostpath.Within(s.Home, s.Workspace) {
		return "", nil
	}
	xdg := path.Join(s.Home, ".config")
	if x := os.Getenv("XDG_CONFIG_HOME"); path.IsAbs(x) {
		xdg = path.Clean(x)
	}
	list := ""
	for _, f := range []string{os.Getenv("GIT_CONFIG_GLOBAL"), path.Join(s.Home, ".gitconfig"), path.Join(xdg, "git", "config")} {
		if _, err := os.Stat(f); f != "" && err == nil {
			// git itself only when there is a file to read (a
			// command of its own pays for this call).
			ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
			list = settings.UserGitList(ctx, s.Workspace, s.Home)
			cancel()
			break
		}
	}
	var read []string
	add := func(p string, dir bool) {
		if !hostpath.Below(p, s.Home) || hostpath.Within(p, s.Workspace) || hostpath.Within(s.Workspace, p) {
			// In the workspace it is protected already ([DetectHost]);
			// a directory holding the workspace would show other
			// projects; outside the home it is visible through the
			// system mounts or not at all.
			return
		}
		// Through a symlink too: the target must pass the same test.
		real, err := filepath.EvalSymlinks(p)
		if err != nil || !hostpath.Below(real, s.Home) || hostpath.Within(real, s.Workspace) || hostpath.Within(s.Workspace, real) {
			return
		}
		if fi, err := os.Stat(p); err == nil && fi.IsDir() == dir {
			read = append(read, p)
		}
	}
	add(settings.GitPath(settings.GitValue(list, "core.hookspath"), s.Home, s.Workspace), true)
	for key, def := range map[string]string{"core.excludesfile": "ignore", "core.attributesfile": "attributes", "commit.template": ""} {
		p := settings.GitPath(settings.GitValue(list, key), s.Home, s.Workspace)
		if p == "" && def != "" {
			p = path.Join(xdg, "git", def)
		}
		add(p, false)
	}
	slices.Sort(read)
	return settings.GitConfigFile(list), read
}

// WriteGitHome writes the sanitized copy of the user's global git
// configuration ([userGitConfig]) to file, mode 0600, and fills
// s.GitHome with it: the agent ring binds the same copy at ~/.gitconfig
// as the command sandbox, so that the agent's own file tools do not read
// the user's credentials in it either. Nothing is done without a home.
func WriteGitHome(s *Spec, file string) error {
	content, read := userGitConfig(*s)
	if content == "" {
		return nil
	}
	if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
		return fmt.Errorf("git configuration copy: %w", err)
	}
	s.GitHome = gitHome{Config: file, Read: read}
	return nil
}

// gitHomeMounts binds the files the copy names read-only at themselves,
// then the copy at ~/.gitconfig: after the grants and caches in before,
// so that a hooks directory inside a writable grant still cannot be
// written (hooks are code the host runs), before the workspace. The
// copy goes only where the home's own mount shows ~/.gitconfig: a grant
// that covers it (sandbox.read of the home) shows the real file, and
// bwrap could not make a mount point in a read-only one.
func gitHomeMounts(s Spec, fsys FS, before []Mount) []Mount {
	var ms []Mount
	for _, p := range s.GitHome.Read {
		if _, err := fsys.Stat(p); err == nil {
			ms = append(ms, Mount{Kind: ROBind, Src: p, Dst: p})
		}
	}
	if s.GitHome.Config == "" || s.Home == "" || s.Home == "/" {
		return ms
	}
	dst := path.Join(s.Home, ".gitconfig")
	// The home's own mount: its tmpfs or a scratch directory bound at it
	// (the command sandbox's, the ring's), never the real home granted.
	if i := lastCovering(before, dst); i >= 0 && before[i].Dst == s.Home && before[i].Src != s.Home && (before[i].Kind == Tmpfs || before[i].Kind == Bind) {
		ms = append(ms, Mount{Kind: ROBind, Src: s.GitHome.Config, Dst: dst})
	}
	return ms
}
