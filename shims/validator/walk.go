// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// checker holds the state of one Check call.
type checker struct {
	v        *Validator
	res      Result
	have     bool
	depth    int        // wrappers and nested programs entered
	anchor   syntax.Pos // position reported for findings in a nested program
	anchored bool       // anchor is set
	fields   int        // brace-expanded fields so far (see maxFieldsTotal)
	steps    int        // statements walked so far
	extra    int        // statements walked again by second loop passes
	trace    *tracer    // set by Trace: record calls and writes
	lenient  bool       // set by CheckScript: see scriptLenient
	asks     []Finding  // every ask finding, in the order found (see Result.Asks)
	askSeen  map[string]bool
	note     string // said before a rule's reason (find runs this ...)
	// script files read for this line (scriptfile.go): how many, how
	// deep now, how many bytes.
	scriptFiles, scriptNest, scriptBytes int
	wrote                                map[string]bool // paths the line may write, before a script it runs (scriptwrite.go)
	wroteUnknown                         bool            // a write to a path the validator cannot tell
}

// maxExtraSteps bounds the statements walked a second time for loop bodies
// that change the scope, so that nested loops around a huge body keep the
// validator fast. Past it, the scope after the loop is just unknown.
const maxExtraSteps = 50000

func newChecker(v *Validator) *checker { return &checker{v: v} }

func (c *checker) initialScope() scope {
	return scope{
		cwd: c.v.env.Cwd, cwdOK: c.v.env.Cwd != "",
		home: c.v.env.Home, homeOK: c.v.env.Home != "",
		tmp: c.v.env.Tmpdir, tmpOK: c.v.env.Tmpdir != "",
		script: c.lenient,
	}
}

func (c *checker) result() Result {
	if !c.have {
		return Result{Decision: policy.Allow}
	}
	r := c.res
	if r.Decision == policy.Ask {
		r.Asks = c.asks
	}
	return r
}

// done reports whether nothing found later can change the result.
func (c *checker) done() bool { return c.have && c.res.Decision == policy.Deny }

// report records a finding; the strictest decision wins, and among equal
// decisions the first one found.
//
// Every ask finding is also kept (Result.Asks): a line with two of them
// asks about both, and a grant of one must not let the other ride along
// (issue #26, finding 4).
func (c *checker) report(decision, id, reason, hint string, pos syntax.Pos, node syntax.Node) {
	if decision == policy.Ask {
		c.addAsk(id, reason, hint, pos, node)
	}
	if c.have && policy.DecisionRank(decision) <= policy.DecisionRank(c.res.Decision) {
		return
	}
	if c.lenient && scriptLenient[id] {
		return
	}
	r := Result{Decision: decision, RuleID: id, Reason: reason, Hint: hint}
	r.Line, r.Col, r.Command = c.where(pos, node)
	c.res, c.have = r, true
}

// where is a finding's reported position and canonical text.
func (c *checker) where(pos syntax.Pos, node syntax.Node) (line, col int, cmd string) {
	if c.anchored {
		pos = c.anchor
	}
	if pos.IsValid() {
		line, col = int(pos.Line()), int(pos.Col())
	}
	if node != nil {
		cmd = canonical(node)
	}
	return line, col, cmd
}

// addAsk keeps one ask finding, once per rule and shape. There is no
// bound but the text's: a grant must cover every finding, so none may
// be dropped.
func (c *checker) addAsk(id, reason, hint string, pos syntax.Pos, node syntax.Node) {
	f := Finding{RuleID: id, Reason: reason, Hint: hint}
	f.Line, f.Col, f.Command = c.where(pos, node)
	key := id + "\x00" + f.Command
	if c.askSeen[key] {
		return
	}
	if c.askSeen == nil {
		c.askSeen = map[string]bool{}
	}
	c.askSeen[key] = true
	c.asks = append(c.asks, f)
}

func (c *checker) deny(id, reason, hint string, pos syntax.Pos, node syntax.Node) {
	c.report(policy.Deny, id, reason, hint, pos, node)
}

// canonical prints a node on one line with mvdan's printer.
func canonical(n syntax.Node) string {
	var b strings.Builder
	if err := syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, n); err != nil {
		return ""
	}
	return strings.TrimSpace(b.String())
}

// nodePos returns n's position, or the zero Pos for a nil node.
func nodePos(n syntax.Node) syntax.Pos {
	if n == nil {
		return syntax.Pos{}
	}
	return n.Pos()
}

// program parses and checks src. Nested programs (sh -c, eval, ...)
// report their findings at the position at of the outer word that holds
// them.
func (c *checker) program(src string, at syntax.Pos, sc *scope, in stdin, nested bool) {
	if c.done() {
		return
	}
	if nested {
		c.depth++
		defer func() { c.depth-- }()
		if c.depth > c.v.maxDepth {
			c.depthExceeded(at, nil)
			return
		}
		if !c.anchored {
			c.anchor, c.anchored = at, true
			defer func() { c.anchored = false }()
		}
	}
	// Class 14: the parser silently drops NUL bytes, so look at the raw
	// text before parsing.
	if i := strings.IndexByte(src, 0); i >= 0 {
		l, col := offsetPos(src, uint(i))
		c.deny(idDeceptive, fmt.Sprintf("The command contains %s at %d:%d, which makes it look different from what runs.", describeRune(0), l, col),
			hintDeceptive, posAt(l, col), nil)
		return
	}
	f, err := c.v.parse(src)
	c.programFile(src, f, err, at, sc, in, nested)
}

// programFile is [checker.program] after the parse: f is src parsed (or
// err), by the caller when it has the AST already (the shim parses each
// command line once, #19).
func (c *checker) programFile(src string, f *syntax.File, err error, at syntax.Pos, sc *scope, in stdin, nested bool) {
	if err != nil {
		where := "The command"
		if nested {
			where = "A script nested in the command"
		}
		c.deny(idParse, fmt.Sprintf("%s is not valid bash: %v.", where, err), hintParse, at, nil)
		if !nested {
			var pe syntax.ParseError
			if errors.As(err, &pe) {
				c.res.Line, c.res.Col = int(pe.Pos.Line()), int(pe.Pos.Col())
			}
		}
		return
	}
	if off, r, ok := deceptiveCode(src, f); ok {
		l, col := offsetPos(src, off)
		c.deny(idDeceptive, fmt.Sprintf("The command contains %s outside quotes at %d:%d, which makes it look different from what runs.", describeRune(r), l, col),
			hintDeceptive, posAt(l, col), enclosing(f, off))
		return
	}
	c.stmts(f.Stmts, sc, in)
}

// enclosing returns the innermost simple command (or else statement)
// that contains the byte offset off, for the canonical text of a finding.
func enclosing(f *syntax.File, off uint) syntax.Node {
	var best syntax.Node
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CallExpr, *syntax.Stmt:
			if n.Pos().Offset() <= off && off <= n.End().Offset() {
				best = n
			}
		}
		return true
	})
	return best
}

// posAt builds a position for a line and column of the top-level source.
func posAt(line, col int) syntax.Pos {
	return syntax.NewPos(0, uint(line), uint(col))
}

func (c *checker) depthExceeded(at syntax.Pos, node syntax.Node) {
	c.deny(idDepth, fmt.Sprintf("The command nests wrappers, sh -c or eval deeper than %d levels, so the validator cannot check it.", c.v.maxDepth),
		hintDepth, at, node)
}

func (c *checker) unsupported(n syntax.Node) {
	c.deny(idUnsupported, fmt.Sprintf("The command uses a shell construct (%T) the validator does not know, so it cannot be checked.", n),
		hintUnsupported, nodePos(n), nil)
}

// stdin says where a command's standard input comes from, which matters
// for a shell that reads its script from it (bash <<'EOF', curl x | sh).
type stdin struct {
	pipe   bool
	xargs  bool             // the command's operands may come from xargs' input
	redir  *syntax.Redirect // the last redirection of fd 0, if any
	quoted bool             // redir is a heredoc with a quoted delimiter
}

// stdinOf applies the redirections of a statement to in.
func stdinOf(in stdin, redirs []*syntax.Redirect) stdin {
	for _, r := range redirs {
		if r.N != nil && r.N.Value != "0" {
			continue
		}
		switch r.Op {
		case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			in = stdin{redir: r, quoted: (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) && quotedDelim(r.Word)}
		}
	}
	return in
}

// quotedDelim reports whether a heredoc delimiter has any quoting, which
// makes the body literal.
func quotedDelim(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.Contains(p.Value, `\`) {
				return true
			}
		default:
			return true
		}
	}
	return false
}

func (c *checker) stmts(list []*syntax.Stmt, sc *scope, in stdin) {
	for _, s := range list {
		if c.done() {
			return
		}
		c.stmt(s, sc, in)
	}
}

func (c *checker) stmt(s *syntax.Stmt, sc *scope, in stdin) {
	if s == nil || c.done() {
		return
	}
	c.steps++
	if s.Background || s.Coprocess || s.Disown {
		// A background job runs in a subshell: it cannot change our
		// scope. Background jobs are allowed (the sandbox kills the
		// process group).
		cp := *sc
		sc = &cp
	}
	before := *sc // redirections are opened in the directory before the command runs
	if s.Cmd != nil {
		c.command(s.Cmd, sc, stdinOf(in, s.Redirs))
	}
	for _, r := range s.Redirs {
		c.redirect(r, &before, s)
	}
}

// redirect checks one redirection: its target word (class 11), and the
// words of a heredoc body, which the shell expands unless the delimiter
// is quoted (class 2).
func (c *checker) redirect(r *syntax.Redirect, sc *scope, s *syntax.Stmt) {
	if c.done() {
		return
	}
	if r.N != nil && strings.HasPrefix(r.N.Value, "{") {
		// {name}>file assigns the new descriptor to a variable.
		c.envName(strings.Trim(r.N.Value, "{}"), r.N.Pos(), s)
	}
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		if r.Word != nil {
			c.word(r.Word, sc, true)
		}
		if r.Hdoc != nil {
			c.word(r.Hdoc, sc, true)
		}
		return
	}
	if r.Word == nil {
		return
	}
	c.word(r.Word, sc, false)
	if c.done() {
		return
	}
	switch r.Op {
	case syntax.DplIn, syntax.DplOut:
		if a := c.decode(r.Word, sc); len(a) == 1 && !a[0].dyn && (isDigits(a[0].val) || a[0].val == "-") {
			return // >&2, <&-: descriptors, not files
		}
	case syntax.WordHdoc:
		return // a here-string is data
	}
	c.traceWrite(r, sc)
	c.noteRedirectWrite(r, sc)
	for _, a := range c.decode(r.Word, sc) {
		c.checkDenied(a, sc, s)
	}
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// checkDenied reports an argument or redirect target under sandbox.deny.
func (c *checker) checkDenied(a arg, sc *scope, node syntax.Node) {
	if p, ok := c.v.deniedPath(a, sc); ok {
		if c.v.env.Unsandboxed {
			c.deny(idPathDenied, p+" is listed in sandbox.deny; the sandbox is not in force, so the validator refuses the command instead.", hintPathDenied, a.pos(nodePos(node)), node)
			return
		}
		c.deny(idPathDenied, p+" is hidden by the sandbox (sandbox.deny).", hintPathDenied, a.pos(nodePos(node)), node)
	}
}
