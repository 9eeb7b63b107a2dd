// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package config

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/lite-sandbox/lite-sandbox/shims/policy"
	"github.com/lite-sandbox/lite-sandbox/shims/validator"
)

// loadRules loads the default policy, user as the user's file and, when
// set, project as the workspace's .lite-sandbox.toml, and compiles it
// with its examples checked, as `run` does (issue 31, finding 4). It
// returns the validator, the user file's path and the error.
func loadRules(t *testing.T, user, project string) (*validator.Validator, string, error) {
	t.Helper()
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	uf := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(uf, []byte(user), 0o600); err != nil {
		t.Fatal(err)
	}
	if project != "" {
		if err := os.WriteFile(filepath.Join(ws, ".lite-sandbox.toml"), []byte(project), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	p, err := policy.Load(policy.Options{UserFile: uf, Workspace: ws, Getenv: func(string) string { return "" }})
	if err != nil {
		return nil, uf, err
	}
	v, err := validator.New(p, validator.Env{Workspace: ws, Home: dir, Cwd: ws})
	return v, uf, err
}

// docExample is the first TOML example after heading in the file doc
// (relative to the repository root), read from the text so that the test
// follows it.
func docExample(t *testing.T, doc, heading string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", doc))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut("\n"+string(b), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("%s has no %q", doc, heading)
	}
	m := regexp.MustCompile("(?s)```toml\n(.*?)```").FindStringSubmatch(sec)
	if m == nil {
		t.Fatalf("%s: no ```toml example after %q", doc, heading)
	}
	return m[1]
}

// TestREADMEConfigExampleLoads: the configuration examples of the
// README and of docs/configuration.md load as a user's file; their rule
// tightens the default infra.apply (ask) to a deny.
func TestREADMEConfigExampleLoads(t *testing.T) {
	t.Parallel()
	for _, d := range []struct{ doc, heading string }{
		{"README.md", "## Configuration"},
		{"docs/configuration.md", "# Configuration reference"},
	} {
		t.Run(d.doc, func(t *testing.T) {
			t.Parallel()
			ex := docExample(t, d.doc, d.heading)
			if !strings.Contains(ex, "[[rule]]") {
				t.Fatalf("the example has no rule any more:\n%s", ex)
			}
			v, _, err := loadRules(t, ex, "")
			if err != nil {
				t.Fatalf("the configuration example of %s does not load: %v", d.doc, err)
			}
			for cmd, want := range map[string]string{
				"terraform destroy -auto-approve": "deny",
				"terraform apply":                 "ask",
				"terraform plan":                  "allow",
			} {
				if got := v.Check(cmd).Decision; got != want {
					t.Errorf("%s: %s, want %s", cmd, got, want)
				}
			}
		})
	}
}

// TestTightenEveryDefaultAskRule: a rule of the user's (or a project's)
// that denies what a default rule asks for loads beside it, for every
// ask rule of the default policy, and decides its commands.
func TestTightenEveryDefaultAskRule(t *testing.T) {
	t.Parallel()
	n := 0
	for _, r := range policy.Default().Rules {
		if r.Decision != policy.Ask {
			continue
		}
		n++
		tight := r
		tight.ID = "my." + r.ID
		tight.Decision = policy.Deny
		tight.Reason = "Not from this machine."
		tight.NotMatch = nil
		b, err := toml.Marshal(struct {
			Rule []policy.Rule `toml:"rule"`
		}{[]policy.Rule{tight}})
		if err != nil {
			t.Fatal(err)
		}
		for _, layer := range []string{"user", "project"} {
			t.Run(r.ID+"/"+layer, func(t *testing.T) {
				t.Parallel()
				user, project := string(b), ""
				if layer == "project" {
					user, project = "", string(b)
				}
				v, _, err := loadRules(t, user, project)
				if err != nil {
					t.Fatalf("a rule tightening %s does not load: %v", r.ID, err)
				}
				if got := v.Check(r.Match[0]); got.RuleID != tight.ID || got.Decision != policy.Deny {
					t.Errorf("%s: %s %s, want deny %s", r.Match[0], got.Decision, got.RuleID, tight.ID)
				}
			})
		}
	}
	if n < 4 {
		t.Fatalf("only %d ask rules in the default policy", n)
	}
}

const (
	ruleHead = "[[rule]]\n"
	// looseNpm is a rule beside pkg.publish that would allow it.
	looseNpm = ruleHead + "id = \"my.npm.publish\"\ndecision = \"allow\"\ncommand = \"npm\"\nsub = [\"publish\"]\nreason = \"r\"\nmatch = [\"npm publish\"]\n"
)

// layeringCase is a user's and a project's file, and either the error
// they make or how the loaded policy decides commands.
type layeringCase struct {
	name, user, project string
	wantErr             []string          // substrings of the error
	decide              map[string]string // command: "decision rule"
}

func TestRuleLayering(t *testing.T) {
	t.Parallel()
	for _, tc := range []layeringCase{
		{name: "replace a default by its id (loosen)",
			user:   ruleHead + "id = \"pkg.publish\"\ndecision = \"allow\"\ncommand = \"npm\"\nsub = [\"publish\"]\nreason = \"We publish from here.\"\nmatch = [\"npm publish\"]\n",
			decide: map[string]string{"npm publish": "allow pkg.publish", "cargo publish": "allow "}},
		{name: "replace a default by its id (tighten)",
			user:   ruleHead + "id = \"infra.apply\"\ndecision = \"deny\"\ncommand = \"terraform\"\nsub = [\"apply\", \"destroy\"]\nreason = \"r\"\nmatch = [\"terraform apply\"]\n",
			decide: map[string]string{"terraform apply": "deny infra.apply", "pulumi up": "allow "}},
		{name: "tighten beside a default",
			user:   "\n" + ruleHead + "id = \"my.publish\"\ndecision = \"deny\"\ncommand = \"npm\"\nsub = [\"publish\"]\nreason = \"r\"\nmatch = [\"npm publish\"]\nnot_match = [\"npm install\"]\n",
			decide: map[string]string{"npm publish": "deny my.publish", "cargo publish": "ask pkg.publish"}},
		{name: "loosen beside a default",
			user:    looseNpm,
			wantErr: []string{":2:1: rule my.npm.publish (allow)", `decided by rule pkg.publish (ask)`, "shims/policy/default.toml line", `id = "pkg.publish"`}},
		{name: "ask beside a default deny",
			user:    "# mine\n" + ruleHead + "id = \"my.force\"\ndecision = \"ask\"\ncommand = \"git\"\nsub = [\"push\"]\nflags = [\"--force\"]\nreason = \"r\"\nmatch = [\"git push --force origin main\"]\n",
			wantErr: []string{":3:1: rule my.force (ask)", "git.push.force (deny)", `id = "git.push.force"`}},
		{name: "example the rule does not match",
			user:    ruleHead + "id = \"my.tf\"\ndecision = \"deny\"\ncommand = \"terraform\"\nsub = [\"destroy\"]\nreason = \"r\"\nmatch = [\"terraform plan\"]\n",
			wantErr: []string{":2:1: rule my.tf: match example \"terraform plan\"", "does not match it"}},
		{name: "not_match example the rule matches",
			user:    ruleHead + "id = \"my.tf\"\ndecision = \"deny\"\ncommand = \"terraform\"\nreason = \"r\"\nnot_match = [\"terraform plan\"]\n",
			wantErr: []string{":2:1: rule my.tf: not_match example", "narrow the rule"}},
		{name: "two rules of one file, the stricter decides",
			user: ruleHead + "id = \"my.a\"\ndecision = \"ask\"\ncommand = \"frob\"\nreason = \"r\"\nmatch = [\"frob x\", \"frob y\"]\n" +
				ruleHead + "id = \"my.b\"\ndecision = \"deny\"\ncommand = \"frob\"\nargs = [\"x\"]\nreason = \"r\"\nmatch = [\"frob x\"]\n",
			decide: map[string]string{"frob x": "deny my.b", "frob y": "ask my.a"}},
		{name: "two rules of one file, one decision",
			user: ruleHead + "id = \"my.a\"\ndecision = \"deny\"\ncommand = \"frob\"\nreason = \"r\"\nmatch = [\"frob x\"]\n" +
				ruleHead + "id = \"my.b\"\ndecision = \"deny\"\ncommand = \"frob\"\nreason = \"r\"\nmatch = [\"frob x\"]\n",
			wantErr: []string{":8:1: rule my.b (deny)", "decided by rule my.a (deny) at ", ":2:1", "narrow one of the two"}},
		{name: "bad glob",
			user:    "\n\n" + ruleHead + "id = \"my.g\"\ndecision = \"deny\"\ncommand = \"[x\"\nreason = \"r\"\n",
			wantErr: []string{":4:1: rule my.g: command"}},
		{name: "project asks where the user denies",
			user:    ruleHead + "id = \"my.tf\"\ndecision = \"deny\"\ncommand = \"terraform\"\nreason = \"r\"\nmatch = [\"terraform plan\"]\n",
			project: ruleHead + "id = \"proj.tf\"\ndecision = \"ask\"\ncommand = \"terraform\"\nsub = [\"plan\"]\nreason = \"r\"\nmatch = [\"terraform plan\"]\n",
			decide:  map[string]string{"terraform plan": "deny my.tf"}},
		{name: "project redefines a default",
			project: "\n" + ruleHead + "id = \"pkg.publish\"\ndecision = \"deny\"\ncommand = \"npm\"\nreason = \"r\"\n",
			wantErr: []string{".lite-sandbox.toml:3:1: rule pkg.publish: a project file may only tighten", "new id", "your own file"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkLayering(t, tc)
		})
	}
}

// checkLayering loads tc and checks its error (which must start with
// the user's file when the project's is not involved, and be one line)
// or its decisions.
func checkLayering(t *testing.T, tc layeringCase) {
	t.Helper()
	v, uf, err := loadRules(t, tc.user, tc.project)
	if len(tc.wantErr) > 0 {
		if err == nil {
			t.Fatal("loaded; want an error")
		}
		msg := err.Error()
		if tc.project == "" && !strings.HasPrefix(msg, uf+":") {
			t.Errorf("error does not start with the file %s: %s", uf, msg)
		}
		for _, w := range tc.wantErr {
			if !strings.Contains(msg, w) {
				t.Errorf("error lacks %q: %s", w, msg)
			}
		}
		if strings.Contains(msg, "\n") {
			t.Errorf("more than one error: %s", msg)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	for cmd, want := range tc.decide {
		got := v.Check(cmd)
		if s := got.Decision + " " + got.RuleID; s != want {
			t.Errorf("%s: %q, want %q", cmd, s, want)
		}
	}
}
