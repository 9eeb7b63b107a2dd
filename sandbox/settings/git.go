// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package settings

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"os/exec"
	"path"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
)

// The user's git, as the sandbox shows it (issue #31): the sandbox
// package binds at ~/.gitconfig a read-only copy of the user's global
// configuration that keeps only an allow-list of keys (identity,
// aliases, the settings that make git behave as on the host, the paths
// of the user's global hooks, excludes and attributes files); credential
// helpers, http.* (extraHeader tokens, proxies), URLs with user
// information and signing stay out. The sandbox package (gitglobal.go)
// decides which files the copy names are bound, and writes the copy.

// gitForced ends every copy: .git/config is read-only in the sandbox
// (classes 9, 11), and these two settings would make git write it after
// the work is done (a tracking branch made by `git checkout BRANCH` from
// a remote one, `git worktree add -b`, a `git push` of a new branch),
// printing an error while exiting 0. Without them a new branch simply
// has no upstream, which `git branch -u` on the host sets.
const gitForced = `# lite-sandbox: .git/config is read-only in the sandbox; new branches do not
# record an upstream there (set it on the host: git branch -u REMOTE/BRANCH).
[branch]
	autoSetupMerge = false
[push]
	autoSetupRemote = false
`

// gitSections are the sections copied whole: identity, aliases, and
// settings that change what git does with the work (not where it sends
// it). Programs they name run inside the sandbox.
var gitSections = map[string]bool{
	"user": true, "author": true, "committer": true, "alias": true,
	"color": true, "column": true, "diff": true, "merge": true, "rebase": true, "pull": true,
	"rerere": true, "status": true, "log": true, "format": true, "pretty": true, "blame": true,
	"grep": true, "help": true, "advice": true, "fetch": true, "tag": true, "branch": true,
	"interactive": true, "apply": true, "am": true, "submodule": true, "filter": true,
	"i18n": true, "feature": true, "index": true, "pack": true, "gc": true,
	"safe": true, "transfer": true, "protocol": true, "sequence": true, "mergetool": true,
	"difftool": true, "stash": true, "checkout": true, "clone": true, "trailer": true,
	"versionsort": true, "notes": true, "worktree": true, "sparse": true,
}

// gitKeys are single keys copied from sections not copied whole.
var gitKeys = map[string]bool{
	"init.defaultbranch": true, "commit.verbose": true, "commit.cleanup": true,
	"commit.status": true, "commit.template": true, "push.default": true, "push.followtags": true,
	"core.editor": true, "core.pager": true, "core.autocrlf": true,
	"core.eol": true, "core.safecrlf": true, "core.filemode": true, "core.ignorecase": true,
	"core.quotepath": true, "core.whitespace": true, "core.excludesfile": true,
	"core.attributesfile": true, "core.hookspath": true, "core.abbrev": true,
	"core.compression": true, "core.loosecompression": true, "core.longpaths": true,
	"core.precomposeunicode": true, "core.protectntfs": true, "core.protecthfs": true,
	"core.symlinks": true, "core.commentchar": true, "core.commentstring": true,
	"core.untrackedcache": true, "core.preloadindex": true, "core.checkstat": true,
	"core.trustctime": true, "core.splitindex": true, "core.bigfilethreshold": true,
	"core.deltabasecachelimit": true, "core.packedgitlimit": true,
	"core.packedgitwindowsize": true, "core.fsync": true, "core.fsyncmethod": true,
	"core.multipackindex": true, "core.warnambiguousrefs": true, "core.logallrefupdates": true,
	"web.browser": true,
}

// gitDropped are keys of copied sections that still stay out: signing
// needs keys the sandbox does not show (~/.gnupg, ssh-agent), and the
// forced settings above.
var gitDropped = map[string]bool{
	"tag.gpgsign": true, "tag.forcesignannotated": true, "branch.autosetupmerge": true,
}

// keepGitKey reports whether the global entry key (as `git config
// --list` prints it: section and name lower-case, subsection as
// written) goes into the sandbox's copy.
func keepGitKey(key string) bool {
	sec, rest, ok := strings.Cut(key, ".")
	if !ok {
		return false
	}
	sub, name := "", rest
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		sub, name = rest[:i], rest[i+1:]
	}
	flat := sec + "." + name
	switch {
	case gitDropped[flat] || gitDropped[key]:
		return false
	case sec == "url":
		// url.<base>.insteadOf: the base may carry a token
		// (https://x-access-token:TOKEN@github.com/).
		return (name == "insteadof" || name == "pushinsteadof") && !urlHasSecret(sub)
	case sec == "safe":
		return name == "directory"
	case sec == "protocol":
		// protocol.<name>.allow: which transports git may use.
		return name == "allow"
	case sec == "filter":
		// The user's own clean/smudge filters (git-lfs) keep the
		// repository's content as on the host.
		return name == "clean" || name == "smudge" || name == "process" || name == "required"
	case gitSections[sec]:
		return true
	}
	return sub == "" && gitKeys[key]
}

// urlHasSecret reports whether a URL may carry a credential: any user
// information in a URL with a scheme other than ssh (tokens are often
// the user name, https://TOKEN@host/), or a password anywhere.
// scp-like "git@host:path" has no scheme and no secret.
func urlHasSecret(u string) bool {
	if !strings.Contains(u, "://") {
		return false
	}
	p, err := url.Parse(u)
	if err != nil {
		// Unparsable: keep it out when it could hold user information.
		return strings.Contains(u, "@")
	}
	if p.User == nil {
		return false
	}
	if _, set := p.User.Password(); set {
		return true
	}
	return p.Scheme != "ssh" && p.Scheme != "git+ssh" && p.Scheme != "ssh+git"
}

// GitConfigFile writes the kept entries of a `git config --null --list`
// output ([UserGitList]) as a config file, in order (multi-valued keys
// keep theirs), then [gitForced]: the copy the sandbox binds read-only
// at ~/.gitconfig.
func GitConfigFile(list string) string {
	var b strings.Builder
	b.WriteString("# lite-sandbox: a read-only copy of your global git configuration, made for\n" +
		"# this sandbox (credentials and signing left out); change it on the host.\n")
	last := ""
	for _, e := range strings.Split(list, "\x00") {
		key, value, hasValue := strings.Cut(e, "\n")
		if key == "" || !keepGitKey(key) {
			continue
		}
		sec, rest, _ := strings.Cut(key, ".")
		head := "[" + sec + "]"
		name := rest
		if i := strings.LastIndexByte(rest, '.'); i >= 0 {
			head = "[" + sec + " " + quoteGit(rest[:i]) + "]"
			name = rest[i+1:]
		}
		if head != last {
			b.WriteString(head + "\n")
			last = head
		}
		if !hasValue {
			b.WriteString("\t" + name + "\n")
			continue
		}
		b.WriteString("\t" + name + " = " + quoteGit(value) + "\n")
	}
	b.WriteString(gitForced)
	return b.String()
}

// quoteGit quotes a value or subsection for a git config file.
func quoteGit(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\b", `\b`)
	return `"` + r.Replace(s) + `"`
}

// GitValue returns the last value of key in a `git config --null
// --list` output, or "".
func GitValue(list, key string) string {
	v := ""
	for _, e := range strings.Split(list, "\x00") {
		if k, val, ok := strings.Cut(e, "\n"); ok && strings.EqualFold(k, key) {
			v = val
		}
	}
	return v
}

// GitPath expands a path value of the global config as git does (~/ is
// the home; a relative one is relative to the working tree, that is in
// the workspace) and returns it clean, or "".
func GitPath(v, home, ws string) string {
	switch {
	case v == "":
		return ""
	case v == "~" || strings.HasPrefix(v, "~/"):
		return path.Join(home, v[1:])
	case strings.HasPrefix(v, "/"):
		return path.Clean(v)
	}
	return path.Join(ws, v)
}

// UserGitList lists the user's global git configuration (~/.gitconfig
// and $XDG_CONFIG_HOME/git/config, or $GIT_CONFIG_GLOBAL) as the host's
// git in the workspace ws reads it (includes followed, includeIf
// conditions judged for ws), in the `--null --list` form; "" when git
// is missing, fails or outlives ctx.
func UserGitList(ctx context.Context, ws, home string) string {
	git, err := exec.LookPath("git")
	if err != nil {
		return ""
	}
	// Not --global, which reads ~/.gitconfig alone when it exists (git
	// 2.39); the global scope of the full list is both files.
	cmd := exec.CommandContext(ctx, git, "-C", ws, "config", "--list", "--includes", "--show-scope", "--show-origin", "--null")
	// As in the sandbox's hooksPath (host.go): the user's files count,
	// variables that point git at other ones count only when they name
	// the global file itself.
	env := []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "GIT_CONFIG_NOSYSTEM=1"}
	for _, v := range []string{"XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL"} {
		if x := os.Getenv(v); x != "" {
			env = append(env, v+"="+x)
		}
	}
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout = &out
	if cmd.Run() != nil {
		return ""
	}
	return fromOutside(out.String(), ws)
}

// fromOutside turns `git config --list --show-scope --show-origin
// --null` output into the --list form of the global scope alone (not
// the repository's), without the entries of files in the workspace: a
// global configuration that includes a file there would otherwise let
// the sandbox choose, for its next start, the hooks directory bound into
// it or the aliases it runs.
func fromOutside(out, ws string) string {
	var b strings.Builder
	f := strings.Split(out, "\x00")
	for i := 0; i+2 < len(f); i += 3 {
		origin, ok := strings.CutPrefix(f[i+1], "file:")
		if f[i] != "global" || !ok || !path.IsAbs(origin) || hostpath.Within(path.Clean(origin), ws) {
			continue
		}
		b.WriteString(f[i+2] + "\x00")
	}
	return b.String()
}
