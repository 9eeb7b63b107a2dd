// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// Env is what the validator knows of the place the command runs in.
type Env struct {
	Workspace string // absolute workspace root
	Home      string // the user's real home directory (what ~ and $HOME mean)
	Cwd       string // absolute directory the command starts in (defaults to Workspace when empty)
	// Tmpdir is what $TMPDIR holds for the command ("" when unknown):
	// /tmp in the Linux sandbox, where the shim sets it.
	Tmpdir string
	// Unsandboxed is true when commands run without the OS sandbox
	// (mode off, or auto without a backend): a refusal then must not say
	// that the sandbox hides anything.
	Unsandboxed bool
	// Scripts reads the script files a command names in the workspace
	// (bash x.sh, ./y, source f) so that the rules reach their commands
	// (scriptfile.go); nil: they are not read.
	Scripts ScriptReader
}

// ruleExampleEnv returns the environment in which [New] checks the match
// and not_match examples of every rule. The text ${workspace} in an
// example is replaced by its Workspace before the example is checked.
func ruleExampleEnv() Env {
	return Env{Workspace: "/work/ws", Home: "/home/user", Cwd: "/work/ws", Tmpdir: "/tmp"}
}

// Result is the validator's decision on one command.
type Result struct {
	Decision  string // policy.Allow, policy.Ask or policy.Deny
	RuleID    string // "" when allowed with no rule
	Reason    string
	Hint      string
	Line, Col int    // 1-based position in the checked string of the offending node; 0 if none
	Command   string // canonical text (mvdan syntax.Printer, single line) of the offending simple command or construct
	// Asks lists every ask rule's finding on the line when Decision is
	// policy.Ask, the deciding one first: a person is asked about all
	// of them, and a "yes for this session" grants each one alone
	// (docs/validator.md §8). Nil otherwise.
	Asks []Finding
}

// Finding is one rule's match on one simple command.
type Finding struct {
	RuleID, Reason, Hint string
	Line, Col            int
	Command              string // canonical text of the simple command (the shape a grant names)
}

// Allowed reports whether the command may run without asking.
func (r Result) Allowed() bool { return r.Decision == policy.Allow }

// Message returns one line for the model:
// "lite-sandbox: blocked by <id>: <reason> Hint: <hint>", without the hint
// part when there is none. It is empty for an allowed result.
func (r Result) Message() string {
	if r.Allowed() {
		return ""
	}
	return "lite-sandbox: blocked by " + r.Rule() + ": " + r.Why()
}

// Rule is the deciding rule's id, or "policy" when no rule decided.
func (r Result) Rule() string {
	if r.RuleID == "" {
		return "policy"
	}
	return r.RuleID
}

// Why is the reason and, when there is one, " Hint: <hint>", on one
// line (also the question of an ask rule, docs/validator.md §8).
func (r Result) Why() string {
	msg := oneLine(r.Reason)
	if r.Hint != "" {
		msg += " Hint: " + oneLine(r.Hint)
	}
	return msg
}

// oneLine folds line breaks and runs of blanks so that a message stays on
// one line whatever a reason or a parser message contains, with what a
// terminal would act on shown escaped (a project policy file is from
// inside; internal/esc).
func oneLine(s string) string {
	return esc.Text(strings.Join(strings.Fields(s), " "))
}

// Validator checks shell commands against a policy. It is immutable after
// [New] and safe for concurrent use.
type Validator struct {
	env      Env
	rules    []*rule
	denyEnv  []string
	deny     []denyPath
	write    []string // sandbox.write, resolved (a worktree may go there)
	maxDepth int
	parsers  *sync.Pool // *syntax.Parser; a parser is not safe for concurrent use; shared by At's copies
}

// defaultMaxDepth applies when the policy leaves shell.max_depth unset.
const defaultMaxDepth = 8

// New compiles p for env and checks every rule's examples (in the fixed
// environment of the package documentation). A failing example is reported as an *exampleError
// (several are joined with [errors.Join]); invalid globs, flags or paths
// in a rule are errors too.
func New(p *policy.Policy, env Env) (*Validator, error) {
	v, err := compile(p, env)
	if err != nil {
		return nil, err
	}
	if err := checkExamples(p); err != nil {
		return nil, err
	}
	return v, nil
}

// NewChecked compiles a policy whose examples already passed [New] in
// this session (a session's frozen copy): every command a shim runs pays
// for the compile, and the examples would add about a millisecond each
// time without telling anything new. Anything else must use [New].
func NewChecked(p *policy.Policy, env Env) (*Validator, error) {
	return compile(p, env)
}

// compile builds a Validator without running the rule examples.
func compile(p *policy.Policy, env Env) (*Validator, error) {
	if p == nil {
		return nil, errors.New("validator: nil policy")
	}
	p = p.Clone() // the Validator keeps rules: a caller's later edit must not change it
	for _, d := range []struct{ name, val string }{
		{"workspace", env.Workspace}, {"home", env.Home}, {"cwd", env.Cwd},
	} {
		if d.val != "" && !path.IsAbs(d.val) {
			return nil, fmt.Errorf("validator: %s %q is not an absolute path", d.name, d.val)
		}
	}
	if env.Cwd == "" {
		env.Cwd = env.Workspace
	}
	env.Workspace = cleanOrEmpty(env.Workspace)
	env.Home = cleanOrEmpty(env.Home)
	env.Cwd = cleanOrEmpty(env.Cwd)
	v := &Validator{env: env, maxDepth: p.Shell.MaxDepth, parsers: &sync.Pool{New: func() any {
		return syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true))
	}}}
	switch {
	case v.maxDepth == 0:
		v.maxDepth = defaultMaxDepth
	case v.maxDepth < 0:
		return nil, fmt.Errorf("validator: shell.max_depth %d is negative", v.maxDepth)
	}
	for _, g := range p.Shell.DenyEnv {
		if _, err := path.Match(g, ""); err != nil {
			return nil, fmt.Errorf("validator: shell.deny_env %q: %w", g, err)
		}
		v.denyEnv = append(v.denyEnv, g)
	}
	for _, d := range p.Sandbox.Deny {
		dp, ok, err := compileDenyPath(d, env)
		if err != nil {
			return nil, fmt.Errorf("validator: sandbox.deny: %w", err)
		}
		if ok {
			v.deny = append(v.deny, dp)
		}
	}
	for _, w := range p.Sandbox.Write {
		if r, ok, err := resolvePolicyPath(w, env); err == nil && ok {
			v.write = append(v.write, r)
		}
	}
	seen := map[string]bool{}
	for i := range p.Rules {
		r, err := compileRule(&p.Rules[i], env)
		if err != nil {
			if o := p.Rules[i].Origin; o.File != "" {
				return nil, fmt.Errorf("%s: %w", o, err)
			}
			return nil, fmt.Errorf("validator: %w", err)
		}
		if seen[r.ID] {
			return nil, fmt.Errorf("validator: rule id %q is defined twice", r.ID)
		}
		seen[r.ID] = true
		v.rules = append(v.rules, r)
	}
	return v, nil
}

// At returns the validator for commands that start in cwd (an absolute
// path; "" means the workspace), sharing v's compiled rules: the
// session's judge compiles the frozen policy once and judges each
// command at its own working directory (docs/performance.md).
func (v *Validator) At(cwd string) (*Validator, error) {
	if cwd == "" {
		cwd = v.env.Workspace
	}
	if !path.IsAbs(cwd) {
		return nil, fmt.Errorf("validator: cwd %q is not an absolute path", cwd)
	}
	w := *v
	w.env.Cwd = path.Clean(cwd)
	return &w, nil
}

func cleanOrEmpty(p string) string {
	if p == "" {
		return ""
	}
	return path.Clean(p)
}

// Check judges one command line (a Bash program). It never panics: an
// internal failure is a denial with rule id "internal.error".
func (v *Validator) Check(command string) (res Result) { return v.check(command, nil) }

// check is Check, recording calls and writes in t when it is set.
func (v *Validator) check(command string, t *tracer) (res Result) {
	return v.checkWith(t, func(c *checker, sc *scope) {
		c.program(command, syntax.Pos{}, sc, stdin{}, false)
	})
}

// checkWith runs walk on a fresh checker and returns its result, a panic
// turned into a denial.
func (v *Validator) checkWith(t *tracer, walk func(c *checker, sc *scope)) (res Result) {
	defer func() {
		if e := recover(); e != nil {
			res = Result{
				Decision: policy.Deny,
				RuleID:   idInternal,
				Reason:   fmt.Sprintf("The validator failed on this command (%v), so it is refused to be safe.", e),
				Hint:     "Simplify the command, and report the problem to the lite-sandbox authors.",
			}
		}
	}()
	c := newChecker(v)
	c.trace = t
	sc := c.initialScope()
	walk(c, &sc)
	return c.result()
}

// CheckArgv judges an argv (as a program would be exec'ed): every element
// is quoted for Bash and the joined string is checked.
func (v *Validator) CheckArgv(argv []string) Result {
	quoted := make([]string, len(argv))
	for i, a := range argv {
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			return Result{
				Decision: policy.Deny,
				RuleID:   idDeceptive,
				Reason:   fmt.Sprintf("Argument %d cannot be passed to a shell: %v.", i, err),
				Hint:     hintDeceptive,
			}
		}
		quoted[i] = q
	}
	return v.Check(strings.Join(quoted, " "))
}

// parse parses src as a Bash program with a pooled parser.
func (v *Validator) parse(src string) (*syntax.File, error) {
	p := v.parsers.Get().(*syntax.Parser)
	defer v.parsers.Put(p)
	return p.Parse(strings.NewReader(src), "")
}

// parseArithm parses src as an arithmetic expression (an array subscript
// that bash evaluates at run time).
func (v *Validator) parseArithm(src string) (syntax.ArithmExpr, error) {
	p := v.parsers.Get().(*syntax.Parser)
	defer v.parsers.Put(p)
	return p.Arithmetic(strings.NewReader(src))
}
