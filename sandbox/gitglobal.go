// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
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

// renderGitConfig writes the kept entries of a `git config --null
// --list` output as a config file, in order (multi-valued keys keep
// theirs), then [gitForced].
func renderGitConfig(list string) string {
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

// lastValue returns the last value of key in a `git config --null
// --list` output, or "".
func lastValue(list, key string) string {
	v := ""
	for _, e := range strings.Split(list, "\x00") {
		if k, val, ok := strings.Cut(e, "\n"); ok && strings.EqualFold(k, key) {
			v = val
		}
	}
	return v
}

// gitPathValue expands a path value of the global config as git does
// (~/ is the home; a relative one is relative to the working tree, that
// is in the workspace) and returns it clean, or "".
func gitPathValue(v, home, ws string) string {
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
			list = globalGitList(s.Workspace, s.Home)
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
	add(gitPathValue(lastValue(list, "core.hookspath"), s.Home, s.Workspace), true)
	for key, def := range map[string]string{"core.excludesfile": "ignore", "core.attributesfile": "attributes", "commit.template": ""} {
		p := gitPathValue(lastValue(list, key), s.Home, s.Workspace)
		if p == "" && def != "" {
			p = path.Join(xdg, "git", def)
		}
		add(p, false)
	}
	slices.Sort(read)
	return renderGitConfig(list), read
}

// globalGitList lists the user's global git configuration (~/.gitconfig
// and $XDG_CONFIG_HOME/git/config, or $GIT_CONFIG_GLOBAL) as git in the
// workspace reads it, in the --list form; "" when git is missing or
// fails.
func globalGitList(ws, home string) string {
	git, err := exec.LookPath("git")
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	// Not --global, which reads ~/.gitconfig alone when it exists (git
	// 2.39); the global scope of the full list is both files.
	cmd := exec.CommandContext(ctx, git, "-C", ws, "config", "--list", "--includes", "--show-scope", "--show-origin", "--null")
	// As in hooksPath: the user's files count, variables that point git
	// at other ones count only when they name the global file itself.
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
