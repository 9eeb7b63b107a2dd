// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package policy

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
)

func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func noenv(string) string { return "" }

func TestDefault(t *testing.T) {
	t.Parallel()
	p := Default()
	if p.Sandbox.Mode != "auto" || p.Sandbox.Network != "open" {
		t.Errorf("mode %q network %q", p.Sandbox.Mode, p.Sandbox.Network)
	}
	for _, want := range []string{"/usr", "/bin", "/lib", "/lib64", "/sbin", "/opt"} {
		if !slices.Contains(p.Sandbox.System, want) {
			t.Errorf("system dirs lack %s", want)
		}
	}
	// The seed's /etc allow-list, exactly: each entry must be there.
	for _, want := range []string{"resolv.conf", "hosts", "nsswitch.conf", "host.conf", "passwd", "group", "localtime", "ssl", "pki", "ca-certificates", "ca-certificates.conf", "gitconfig", "profile", "alternatives"} {
		if !slices.Contains(p.Sandbox.Etc, want) {
			t.Errorf("etc allow-list lacks %s", want)
		}
	}
	for _, never := range []string{"shadow", "gshadow", "sudoers", "ssh"} {
		if slices.Contains(p.Sandbox.Etc, never) {
			t.Errorf("etc allow-list exposes %s", never)
		}
	}
	if !slices.Contains(p.Sandbox.Deny, "~/.ssh") {
		t.Error("~/.ssh is not denied")
	}
	ids := map[string]bool{}
	for _, r := range p.Rules {
		if ids[r.ID] {
			t.Errorf("duplicate rule id %s", r.ID)
		}
		ids[r.ID] = true
	}
}

func TestLoadLayers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	user := write(t, dir, "user.toml", `
[sandbox]
mode = "on"
write = ["~/.cache/go-build"]
deny = ["~/.secrets"]

[[rule]]
id = "git.push.force"
decision = "allow"
command = "git"
reason = "I push by hand."

[[rule]]
id = "my.terraform"
decision = "deny"
command = "terraform"
sub = ["destroy"]
reason = "Destroys infrastructure."
match = ["terraform destroy"]
`)
	ws := t.TempDir()
	write(t, ws, projectFile, `
[sandbox]
network = "off"
deny = ["/srv/data"]

[[rule]]
id = "project.no-make-deploy"
decision = "deny"
command = "make"
sub = ["deploy"]
reason = "Deploys to production."
`)
	p, err := Load(Options{UserFile: user, Workspace: ws, Getenv: noenv})
	if err != nil {
		t.Fatal(err)
	}
	if p.Sandbox.Mode != "on" || p.Sandbox.Network != "off" {
		t.Errorf("mode %q network %q", p.Sandbox.Mode, p.Sandbox.Network)
	}
	if !slices.Contains(p.Sandbox.Write, "~/.cache/go-build") {
		t.Errorf("write = %v", p.Sandbox.Write)
	}
	for _, d := range []string{"~/.ssh", "~/.secrets", "/srv/data"} {
		if !slices.Contains(p.Sandbox.Deny, d) {
			t.Errorf("deny lacks %s: %v", d, p.Sandbox.Deny)
		}
	}
	var push, tf, deploy *Rule
	for i := range p.Rules {
		switch p.Rules[i].ID {
		case "git.push.force":
			push = &p.Rules[i]
		case "my.terraform":
			tf = &p.Rules[i]
		case "project.no-make-deploy":
			deploy = &p.Rules[i]
		}
	}
	if push == nil || push.Decision != Allow {
		t.Errorf("user rule did not replace the default: %+v", push)
	}
	if tf == nil || deploy == nil {
		t.Errorf("added rules missing: %v %v", tf, deploy)
	}
	want := []string{defaultSource, user, filepath.Join(ws, projectFile)}
	if !slices.Equal(p.Sources, want) {
		t.Errorf("sources = %v, want %v", p.Sources, want)
	}
}

func TestUserFileLookup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := map[string]string{"XDG_CONFIG_HOME": dir}
	getenv := func(k string) string { return env[k] }
	// A missing default file is fine.
	if _, err := Load(Options{Getenv: getenv}); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "lite-sandbox"), 0o755)
	write(t, filepath.Join(dir, "lite-sandbox"), "config.toml", "[sandbox]\nmode = \"off\"\n")
	p, err := Load(Options{Getenv: getenv})
	if err != nil || p.Sandbox.Mode != "off" {
		t.Fatalf("xdg file not used: %v %v", err, p)
	}
	// The variable wins over XDG, and must exist.
	env[contract.EnvConfig] = filepath.Join(dir, "missing.toml")
	if _, err := Load(Options{Getenv: getenv}); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing explicit file: %v", err)
	}
}

func TestBadFiles(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text string
		project    bool
		want       string // substring, including file:line:col
	}{
		{"syntax", "[sandbox\nmode = 1\n", false, ":1:"},
		{"unknown key", "[sandbox]\nmod = \"on\"\n", false, `:2:1: unknown key "sandbox.mod"`},
		{"bad type", "[sandbox]\nmode = 3\n", false, ":2:"},
		{"bad mode", "[sandbox]\n\nmode = \"sometimes\"\n", false, `:3:1: unknown sandbox mode "sometimes"`},
		{"bad network", "[sandbox]\nnetwork = \"proxy\"\n", false, `:2:1: unknown network mode`},
		{"relative path", "[sandbox]\nread = [\"src\"]\n", false, `:2:1: sandbox.read: "src" must be absolute`},
		{"etc escape", "[sandbox]\netc = [\"../root\"]\n", false, `must be a name relative to /etc`},
		{"version", "version = 2\n", false, ":1:1: unsupported policy version 2"},
		{"rule without reason", "[[rule]]\nid = \"a\"\ndecision = \"deny\"\ncommand = \"x\"\n", false, ":2:1: rule 1: a: missing reason"},
		{"second rule bad decision", "[[rule]]\nid = \"a\"\ndecision = \"deny\"\ncommand = \"x\"\nreason = \"r\"\n\n[[rule]]\nid = \"b\"\ndecision = \"maybe\"\ncommand = \"x\"\nreason = \"r\"\n", false, `:8:1: rule 2: b: unknown decision "maybe"`},
		{"project loosens mode", "[sandbox]\nmode = \"off\"\n", true, `:2:1: sandbox.mode: a project file may only tighten`},
		{"project opens write", "[sandbox]\nwrite = [\"/\"]\n", true, `sandbox.write: a project file may only tighten`},
		{"project adds read", "[sandbox]\nread = [\"~/.ssh\"]\n", true, `sandbox.read: a project file may only tighten`},
		{"project disables rule", "[[rule]]\nid = \"git.push.force\"\ndecision = \"allow\"\ncommand = \"git\"\nreason = \"r\"\n", true, `rule git.push.force: a project file may only tighten`},
		{"project allow rule", "[[rule]]\nid = \"p.allow\"\ndecision = \"allow\"\ncommand = \"curl\"\nreason = \"r\"\n", true, `rule p.allow: a project file may only tighten`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var err error
			if tc.project {
				write(t, dir, projectFile, tc.text)
				_, err = Load(Options{Workspace: dir, Getenv: noenv})
			} else {
				f := write(t, dir, "c.toml", tc.text)
				_, err = Load(Options{UserFile: f, Getenv: noenv})
			}
			if err == nil {
				t.Fatal("loaded a bad file")
			}
			var fe *fileError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a *fileError", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			if strings.Count(err.Error(), "\n") > 0 {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

func TestProjectMayTighten(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write(t, dir, projectFile, "[sandbox]\nmode = \"on\"\nnetwork = \"off\"\n[shell]\nmax_depth = 2\ndeny_env = [\"FOO\"]\n")
	p, err := Load(Options{Workspace: dir, Getenv: noenv})
	if err != nil {
		t.Fatal(err)
	}
	if p.Sandbox.Mode != "on" || p.Sandbox.Network != "off" || p.Shell.MaxDepth != 2 || !slices.Contains(p.Shell.DenyEnv, "FOO") {
		t.Errorf("tightening not applied: %+v %+v", p.Sandbox, p.Shell)
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	t.Parallel()
	p := Default()
	b, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	l, err := decode("printed", b)
	if err != nil {
		t.Fatalf("printed policy does not load: %v\n%s", err, b)
	}
	q := &Policy{}
	if err := q.apply(l, false); err != nil {
		t.Fatal(err)
	}
	if len(q.Rules) != len(p.Rules) || !slices.Equal(q.Sandbox.Etc, p.Sandbox.Etc) {
		t.Error("round trip lost data")
	}
}

func TestClone(t *testing.T) {
	t.Parallel()
	p := Default()
	c := p.Clone()
	c.Sandbox.Deny[0] = "changed"
	c.Rules[0].Flags[0] = "changed"
	if p.Sandbox.Deny[0] == "changed" || p.Rules[0].Flags[0] == "changed" {
		t.Error("Clone shares slices")
	}
}

// TestProtectLayers: any layer may add protected paths, only the user's
// file may remove them, and a project file may neither unprotect nor
// widen the toolchain mounts (escape classes 9 to 15).
func TestProtectLayers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	user := write(t, dir, "user.toml", "[sandbox]\nunprotect = [\".envrc\", \".vscode\"]\ncaches = [\"~/.cache/bazel\"]\n")
	ws := t.TempDir()
	write(t, ws, projectFile, "[sandbox]\nprotect = [\".husky/\", \"scripts/deploy.sh\"]\n")
	p, err := Load(Options{UserFile: user, Workspace: ws, Getenv: noenv})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{".git/hooks/", ".git/config", ".claude/", ".husky/", "scripts/deploy.sh"} {
		if !slices.Contains(p.Sandbox.Protect, want) {
			t.Errorf("protect lacks %s: %v", want, p.Sandbox.Protect)
		}
	}
	for _, gone := range []string{".envrc", ".vscode/"} {
		if slices.Contains(p.Sandbox.Protect, gone) {
			t.Errorf("protect still has %s after unprotect: %v", gone, p.Sandbox.Protect)
		}
	}
	if !slices.Contains(p.Sandbox.Caches, "~/.cache/bazel") || !slices.Contains(p.Sandbox.Caches, "~/.npm") {
		t.Errorf("caches = %v", p.Sandbox.Caches)
	}
	// The frozen copy of a session keeps the result.
	data, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	f, err := LoadFrozen("frozen.toml", data)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.Sandbox.Protect, p.Sandbox.Protect) || !slices.Equal(f.Sandbox.Tools, p.Sandbox.Tools) {
		t.Errorf("frozen protect %v tools %v, want %v %v", f.Sandbox.Protect, f.Sandbox.Tools, p.Sandbox.Protect, p.Sandbox.Tools)
	}

	for _, tc := range []struct{ name, text, want string }{
		{"project unprotects", "[sandbox]\nunprotect = [\".git/hooks\"]\n", "sandbox.unprotect: a project file may only tighten"},
		{"project adds a cache", "[sandbox]\ncaches = [\"~/.ssh\"]\n", "sandbox.caches: a project file may only tighten"},
		{"project shares a cache", "[sandbox]\nshared_caches = [\"~/go/pkg/mod\"]\n", "sandbox.shared_caches: a project file may only tighten"},
		{"project adds a tool", "[sandbox]\ntools = [\"~\"]\n", "sandbox.tools: a project file may only tighten"},
		{"absolute protect", "[sandbox]\nprotect = [\"/etc/x\"]\n", "must be relative to the workspace"},
		{"protect escapes", "[sandbox]\nprotect = [\"../x\"]\n", `must not contain a ".." component`},
		// Escape class 61: a glob would protect or deny nothing, silently.
		{"protect glob", "[sandbox]\nprotect = [\"*.pem\"]\n", `sandbox.protect: "*.pem" is a glob`},
		{"protect glob in a dir", "[sandbox]\nprotect = [\"keys/[ab].key\"]\n", `"keys/[ab].key" is a glob`},
		{"deny glob", "[sandbox]\ndeny = [\"~/keys/*.pem\"]\n", `sandbox.deny: "~/keys/*.pem" is a glob`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := t.TempDir()
			write(t, ws, projectFile, tc.text)
			_, err := Load(Options{Workspace: ws, Getenv: noenv})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
	// The user's file may unprotect; a bad entry is named, with its file.
	bad := write(t, dir, "bad.toml", "[sandbox]\nunprotect = [\"/abs\"]\n")
	if _, err := Load(Options{UserFile: bad, Getenv: noenv}); err == nil || !strings.Contains(err.Error(), "sandbox.unprotect") {
		t.Errorf("err = %v", err)
	}
	glob := write(t, dir, "glob.toml", "[sandbox]\ndeny = [\"~/*.pem\"]\n")
	if _, err := Load(Options{UserFile: glob, Getenv: noenv}); err == nil || !strings.Contains(err.Error(), "glob.toml") ||
		!strings.Contains(err.Error(), "name each path") {
		t.Errorf("a glob in deny: err = %v, want the file and the way out", err)
	}
	// Positive control: the same entries, literal, load.
	lit := write(t, dir, "literal.toml", "[sandbox]\ndeny = [\"~/keys/server.pem\"]\nprotect = [\"keys/a.key\"]\n")
	if _, err := Load(Options{UserFile: lit, Getenv: noenv}); err != nil {
		t.Errorf("literal paths: %v", err)
	}
}
