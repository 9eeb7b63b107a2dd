// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package explain

import (
	"slices"
	"strings"
)

// Git's configuration in the sandbox (docs/confinement.md): the
// repository's .git/config is protected (the host's git acts on it), and
// the user's ~/.gitconfig is a read-only copy. A git command that writes
// either fails with "could not write config file ...: Device or resource
// busy", which names neither lite-sandbox nor what to do; these targets
// make the explanation say it.

// gitConfig stands for the repository's .git/config among targets;
// gitGlobal for the user's global configuration.
const (
	gitConfig = "\x00git-config"
	gitGlobal = "\x00git-global"
)

// gitValueOpts are git's global options that take the next argument as
// their value.
var gitValueOpts = []string{"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--exec-path", "--config-env"}

// gitTargets returns the configuration files a git command (args
// without "git") writes: gitConfig, gitGlobal, or a file named with
// git config --file.
func gitTargets(args []string) []string {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		if slices.Contains(gitValueOpts, args[i]) {
			i++
		}
		i++
	}
	if i >= len(args) {
		return nil
	}
	sub, rest := args[i], args[i+1:]
	pos, flags := splitArgs(rest)
	first := ""
	if len(pos) > 0 {
		first = pos[0]
	}
	has := func(fs ...string) bool {
		return slices.ContainsFunc(flags, func(f string) bool {
			name, _, _ := strings.Cut(f, "=")
			return slices.Contains(fs, name)
		})
	}
	switch sub {
	case "config":
		return gitConfigTargets(rest)
	case "init":
		if len(pos) == 0 {
			return []string{gitConfig} // re-initialises the repository
		}
	case "submodule":
		if slices.Contains([]string{"add", "init", "deinit", "sync", "set-url", "set-branch", "absorbgitdirs"}, first) ||
			first == "update" && has("--init") {
			return []string{gitConfig}
		}
	case "remote":
		if slices.Contains([]string{"add", "rename", "remove", "rm", "set-url", "set-branches"}, first) {
			return []string{gitConfig}
		}
	case "branch":
		if has("-u", "--set-upstream-to", "--unset-upstream", "-m", "-M", "--move", "-c", "-C", "--copy", "-t", "--track") {
			return []string{gitConfig}
		}
	case "checkout", "switch", "worktree", "push":
		if has("-t", "--track", "--set-upstream") || sub == "push" && has("-u") {
			return []string{gitConfig}
		}
	case "sparse-checkout":
		if first != "" && first != "list" {
			return []string{gitConfig}
		}
	case "lfs", "maintenance":
		if slices.Contains([]string{"install", "uninstall", "register", "unregister", "start", "stop"}, first) {
			return []string{gitGlobal}
		}
	}
	return nil
}

// gitConfigTargets returns the file a `git config ARGS` writes, or none
// when it only reads.
func gitConfigTargets(args []string) []string {
	target := gitConfig
	write := false
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, _ := strings.Cut(a, "=")
		switch {
		case name == "--global":
			target = gitGlobal
		case name == "--system":
			target = "/etc/gitconfig"
		case name == "--local" || name == "--worktree":
		case a == "-f" || a == "--file":
			if i+1 < len(args) {
				i++
				target = args[i]
			}
		case strings.HasPrefix(a, "--file="):
			_, target, _ = strings.Cut(a, "=")
		case name == "--blob" || name == "-l" || name == "--list" || strings.HasPrefix(name, "--get"):
			return nil
		case slices.Contains([]string{"--add", "--unset", "--unset-all", "--replace-all", "--rename-section", "--remove-section", "-e", "--edit"}, name):
			write = true
		case strings.HasPrefix(a, "-"):
		default:
			pos = append(pos, a)
		}
	}
	if len(pos) > 0 {
		switch pos[0] {
		case "get", "list":
			return nil
		case "set", "unset", "rename-section", "remove-section", "edit":
			write = true
		}
	}
	if write || len(pos) >= 2 {
		return []string{target}
	}
	return nil
}

// splitArgs separates positional arguments from options (options' own
// values are not told apart: the callers only look at the first word).
func splitArgs(args []string) (pos, flags []string) {
	for _, a := range args {
		if strings.HasPrefix(a, "-") && a != "-" {
			flags = append(flags, a)
		} else {
			pos = append(pos, a)
		}
	}
	return pos, flags
}

// gitLine explains a refused write of git's configuration, or "".
func (c Context) gitLine(p string) string {
	switch p {
	case gitConfig:
		return "lite-sandbox: .git/config is protected and read-only in the sandbox, because the host's git acts on it: git could not save this setting (ask the user to run this git command on the host; sandbox.protect)"
	case gitGlobal:
		return "lite-sandbox: ~/.gitconfig (the user's git settings: identity, aliases, hooks; no credentials) is read-only in the sandbox: commits keep the user's identity; a setting is changed on the host, with git config --global"
	}
	return ""
}

// IsGitConfigLine reports whether l is the line for a write of git's
// configuration read from the command line (gitLine), which git's own
// record (gitevents.go) replaces when there is one.
func IsGitConfigLine(l string) bool {
	return l == Context{}.gitLine(gitConfig) || l == Context{}.gitLine(gitGlobal)
}
