// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"path"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
)

// homeCode lists the paths of a home directory (relative to it) that the
// host runs or reads as code later: shell start-up files, git's config,
// the session's autostart and user units, ssh's keys and config, the
// directories on PATH, editors' start-up files, the agents' own
// configuration and lite-sandbox's. A degraded workspace (the home
// directory, an ancestor of it, or /) is bound read-write, so each of
// them is protected there like .git/hooks in a project, placeholders
// included (escape class 61; docs/confinement.md, "Degraded
// workspaces"). A trailing "/" makes the placeholder a directory.
var homeCode = []string{
	// Shells: bash (Debian's .bashrc sources .bash_aliases), sh/dash,
	// zsh, fish, ksh, readline, X and PAM sessions.
	".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".bash_aliases", ".profile",
	".zshenv", ".zprofile", ".zshrc", ".zlogin", ".zlogout", ".config/fish/",
	".kshrc", ".mkshrc", ".inputrc", ".xprofile", ".xsessionrc", ".xinitrc", ".pam_environment",
	".config/environment.d/", ".config/autostart/", ".config/systemd/", ".local/share/systemd/",
	// Git and ssh: config (core.fsmonitor, aliases, hooksPath), the
	// global ignore and attributes, authorized_keys, ProxyCommand.
	".gitconfig", ".config/git/", ".ssh/",
	// PATH entries a login adds, and editors' start-up files.
	".local/bin/", "bin/", ".vimrc", ".vim/", ".config/nvim/", ".emacs", ".emacs.d/",
	// Agents and lite-sandbox itself.
	".claude/", ".claude.json", ".codex/", ".pi/", ".gemini/", ".config/crush/", ".local/share/crush/",
	".config/opencode/", ".opencode/", ".local/share/opencode/",
	".copilot/", ".cache/copilot/",
	".config/lite-sandbox/",
}

// homePlaceholder is what a placeholder for a missing start-up file of
// bash's login trio holds: bash reads the first of .bash_profile,
// .bash_login and .profile that exists, so an empty placeholder would
// hide the user's .profile from a login shell started on the host while
// the sandbox runs; these read on as bash would.
var homePlaceholder = map[string]string{
	".bash_profile": "if [ -f ~/.bash_login ]; then . ~/.bash_login; elif [ -f ~/.profile ]; then . ~/.profile; fi\n",
	".bash_login":   "if [ -f ~/.profile ]; then . ~/.profile; fi\n",
}

// homeProtect returns the [homeCode] paths of home that lie in the
// degraded workspace ws, marked Home (they get placeholders there).
func homeProtect(ws, home string) []Protected {
	if home == "" || home == "/" {
		return nil
	}
	var out []Protected
	for _, rel := range homeCode {
		p := path.Join(home, rel)
		if p != ws && hostpath.Within(p, ws) {
			out = append(out, Protected{Path: p, Dir: strings.HasSuffix(rel, "/"), Home: true})
		}
	}
	return out
}
