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
	return c.res
}

// done reports whether nothing found later can change the result.
func (c *checker) done() bool { return c.have && c.res.Decision == policy.Deny }

// report records a finding; the strictest decision wins, and among equal
// decisions the first one found.
func (c *checker) report(decision, id, reason, hint string, pos syntax.Pos, node syntax.Node) {
	if c.have && policy.DecisionRank(decision) <= policy.DecisionRank(c.res.Decision) {
		return
	}
	if c.lenient && scriptLenient[id] {
		return
	}
	r := Result{Decision: decision, RuleID: id, Reason: reason, Hint: hint}
	if c.anchored {
		pos = c.anchor
	}
	if pos.IsValid() {
		r.Line, r.Col = int(pos.Line()), int(pos.Col())
	}
	if node != nil {
		r.Command = canonical(node)
	}
	c.res, c.have = r, true
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

// command walks one command node. The default case fails closed.
func (c *checker) command(cmd syntax.Command, sc *scope, in stdin) {
	if c.done() {
		return
	}
	switch x := cmd.(type) {
	case *syntax.CallExpr:
		c.callExpr(x, sc, in)
	case *syntax.BinaryCmd:
		c.binaryCmd(x, sc, in)
	case *syntax.Subshell:
		cp := *sc
		c.stmts(x.Stmts, &cp, in)
	case *syntax.Block:
		c.stmts(x.Stmts, sc, in)
	case *syntax.IfClause:
		c.ifClause(x, sc, in)
	case *syntax.WhileClause:
		c.loop(sc, func(s *scope) {
			c.stmts(x.Cond, s, in)
			c.stmts(x.Do, s, in)
		})
	case *syntax.ForClause:
		c.forClause(x, sc, in)
	case *syntax.CaseClause:
		c.word(x.Word, sc, false)
		out := *sc
		for _, it := range x.Items {
			for _, p := range it.Patterns {
				c.word(p, sc, false)
			}
			br := *sc
			c.stmts(it.Stmts, &br, in)
			out = out.join(br)
		}
		*sc = out
	case *syntax.FuncDecl:
		// The body runs when the function is called; check it now, in a
		// copy of the scope (a function can shadow a command name, but
		// its body is checked like any other code).
		body := *sc
		c.stmt(x.Body, &body, stdin{})
	case *syntax.ArithmCmd:
		c.arithm(x.X, sc)
	case *syntax.TestClause:
		c.testExpr(x.X, sc)
	case *syntax.DeclClause:
		c.declClause(x, sc)
	case *syntax.LetClause:
		for _, e := range x.Exprs {
			c.arithm(e, sc)
		}
	case *syntax.TimeClause:
		c.stmt(x.Stmt, sc, in)
	case *syntax.CoprocClause:
		if x.Name != nil {
			c.word(x.Name, sc, false)
		}
		cp := *sc
		c.stmt(x.Stmt, &cp, stdin{})
	default:
		c.unsupported(cmd)
	}
}

// binaryCmd checks a chain of &&, || and pipes. The parser nests chains
// to the left (a && b && c is (a && b) && c, and 100,000 pipes are
// 100,000 levels), so the chain is walked iteratively along its left
// spine rather than recursively. Pipes bind tighter than && and ||, so
// pipe levels are the innermost part of a spine.
func (c *checker) binaryCmd(x *syntax.BinaryCmd, sc *scope, in stdin) {
	spine := []*syntax.BinaryCmd{x}
	for {
		l := spine[len(spine)-1].X
		b, ok := l.Cmd.(*syntax.BinaryCmd)
		if !ok || len(l.Redirs) > 0 || l.Negated || l.Background || l.Coprocess || l.Disown {
			break
		}
		spine = append(spine, b)
	}
	start := *sc
	if innermost := spine[len(spine)-1]; isPipe(innermost.Op) {
		l := start // each side of a pipeline runs in a subshell
		c.stmt(innermost.X, &l, in)
	} else {
		c.stmt(innermost.X, sc, in)
	}
	for j := len(spine) - 1; j >= 0 && !c.done(); j-- {
		b := spine[j]
		switch b.Op {
		case syntax.Pipe, syntax.PipeAll:
			r := start
			c.stmt(b.Y, &r, stdin{pipe: true})
		case syntax.AndStmt:
			left := *sc
			c.stmt(b.Y, sc, in)
			*sc = left.join(*sc) // the right side may not run
		case syntax.OrStmt:
			// The right side runs when the left failed, possibly half
			// way through.
			left := *sc
			right := start.join(left)
			c.stmt(b.Y, &right, in)
			*sc = left.join(right)
		default:
			c.unsupported(b)
			return
		}
	}
}

func isPipe(op syntax.BinCmdOperator) bool { return op == syntax.Pipe || op == syntax.PipeAll }

func (c *checker) ifClause(x *syntax.IfClause, sc *scope, in stdin) {
	c.stmts(x.Cond, sc, in)
	then := *sc
	c.stmts(x.Then, &then, in)
	els := *sc
	if x.Else != nil {
		c.ifClause(x.Else, &els, in)
	}
	*sc = then.join(els)
}

// loop checks a loop body; when the body changes the scope (cd in a loop),
// it is checked a second time with what is known after any number of
// iterations.
func (c *checker) loop(sc *scope, body func(*scope)) {
	first := *sc
	steps := c.steps
	body(&first)
	if first == *sc || c.done() {
		return
	}
	merged := sc.join(first)
	if cost := c.steps - steps; c.extra+cost <= maxExtraSteps {
		c.extra += cost
		again := merged
		body(&again)
		merged = merged.join(again)
	}
	*sc = merged
}

func (c *checker) forClause(x *syntax.ForClause, sc *scope, in stdin) {
	switch l := x.Loop.(type) {
	case *syntax.WordIter:
		for _, w := range l.Items {
			c.word(w, sc, false)
		}
		if l.Name != nil {
			// for PS4 in '$(id)'; do ... assigns PS4 (class 7).
			c.envName(l.Name.Value, l.Name.Pos(), x)
			c.setVar(l.Name.Value, nil, sc)
		}
	case *syntax.CStyleLoop:
		c.arithm(l.Init, sc)
		c.arithm(l.Cond, sc)
		c.arithm(l.Post, sc)
	default:
		c.unsupported(x.Loop)
		return
	}
	c.loop(sc, func(s *scope) { c.stmts(x.Do, s, in) })
}

// word walks every part of a word: substitutions are nested programs
// (class 2). quoted says the word is inside double quotes or a heredoc.
func (c *checker) word(w *syntax.Word, sc *scope, quoted bool) {
	if w == nil {
		return
	}
	for _, p := range w.Parts {
		if c.done() {
			return
		}
		c.wordPart(p, sc, quoted)
	}
}

func (c *checker) wordPart(p syntax.WordPart, sc *scope, quoted bool) {
	switch x := p.(type) {
	case *syntax.Lit, *syntax.SglQuoted:
	case *syntax.DblQuoted:
		for _, q := range x.Parts {
			c.wordPart(q, sc, true)
		}
	case *syntax.ParamExp:
		c.paramExp(x, sc, quoted)
	case *syntax.CmdSubst:
		cp := *sc // a substitution runs in a subshell
		c.stmts(x.Stmts, &cp, stdin{})
	case *syntax.ProcSubst:
		cp := *sc
		c.stmts(x.Stmts, &cp, stdin{})
	case *syntax.ArithmExp:
		c.arithm(x.X, sc)
	case *syntax.ExtGlob:
	case *syntax.BraceExp:
		for _, e := range x.Elems {
			c.word(e, sc, quoted)
		}
	default:
		c.unsupported(p)
	}
}

func (c *checker) paramExp(x *syntax.ParamExp, sc *scope, quoted bool) {
	if x.NestedParam != nil {
		c.wordPart(x.NestedParam, sc, quoted)
	}
	if x.Index != nil {
		c.arithm(x.Index, sc)
	}
	if x.Slice != nil {
		c.arithm(x.Slice.Offset, sc)
		c.arithm(x.Slice.Length, sc)
	}
	if x.Repl != nil {
		c.word(x.Repl.Orig, sc, quoted)
		c.word(x.Repl.With, sc, quoted)
	}
	if x.Exp == nil {
		return
	}
	c.word(x.Exp.Word, sc, quoted)
	switch x.Exp.Op {
	case syntax.AssignUnset, syntax.AssignUnsetOrNull:
		// ${NAME:=v} assigns NAME (class 7).
		if x.Param != nil {
			c.envName(x.Param.Value, x.Pos(), x)
			c.setVar(x.Param.Value, nil, sc)
		}
	case syntax.OtherParamOps:
		// ${x@P} expands the value like a prompt string, which runs the
		// command substitutions it contains: eval in disguise (class 4).
		if x.Exp.Word != nil && x.Exp.Word.Lit() == "P" {
			c.deny(idDynScript, "${var@P} expands the variable like a prompt, running any command substitution in its value, which the validator cannot see.",
				hintDynScript, x.Pos(), x)
		}
	}
}

// arithm walks an arithmetic expression; assignments in it are
// assignments (class 7), and its words may hold substitutions (class 2).
func (c *checker) arithm(e syntax.ArithmExpr, sc *scope) {
	if e == nil || c.done() {
		return
	}
	switch x := e.(type) {
	case *syntax.BinaryArithm:
		switch x.Op {
		case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn,
			syntax.QuoAssgn, syntax.RemAssgn, syntax.AndAssgn, syntax.OrAssgn,
			syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn, syntax.AndBoolAssgn,
			syntax.OrBoolAssgn, syntax.XorBoolAssgn, syntax.PowAssgn:
			c.arithmTarget(x.X, sc)
		}
		c.arithm(x.X, sc)
		c.arithm(x.Y, sc)
	case *syntax.UnaryArithm:
		if x.Op == syntax.Inc || x.Op == syntax.Dec {
			c.arithmTarget(x.X, sc)
		}
		c.arithm(x.X, sc)
	case *syntax.ParenArithm:
		c.arithm(x.X, sc)
	case *syntax.FlagsArithm:
		c.arithm(x.X, sc)
	case *syntax.Word:
		c.word(x, sc, false)
	default:
		c.unsupported(e)
	}
}

func (c *checker) arithmTarget(e syntax.ArithmExpr, sc *scope) {
	w, ok := e.(*syntax.Word)
	if !ok {
		return
	}
	name := w.Lit()
	if name == "" && len(w.Parts) == 1 {
		if pe, ok := w.Parts[0].(*syntax.ParamExp); ok && pe.Param != nil {
			name = pe.Param.Value
		}
	}
	if name != "" {
		c.envName(name, w.Pos(), w)
		c.setVar(name, nil, sc)
	}
}

func (c *checker) testExpr(e syntax.TestExpr, sc *scope) {
	if e == nil || c.done() {
		return
	}
	switch x := e.(type) {
	case *syntax.BinaryTest:
		c.testExpr(x.X, sc)
		c.testExpr(x.Y, sc)
	case *syntax.UnaryTest:
		c.testExpr(x.X, sc)
		if x.Op == syntax.TsVarSet {
			// [[ -v 'a[$(id)]' ]] evaluates the subscript (class 2).
			if w, ok := x.X.(*syntax.Word); ok {
				if s, ok := c.decodeOne(w, sc); ok {
					c.subscript(s, w.Pos(), sc)
				}
			}
		}
	case *syntax.ParenTest:
		c.testExpr(x.X, sc)
	case *syntax.Word:
		c.word(x, sc, false)
	default:
		c.unsupported(e)
	}
}

// subscript checks the array subscript of a variable name given as data
// ('a[$(id)]'): Bash evaluates it as arithmetic, which runs command
// substitutions (class 2).
func (c *checker) subscript(name string, at syntax.Pos, sc *scope) {
	i := strings.IndexByte(name, '[')
	j := strings.LastIndexByte(name, ']')
	if i < 0 || j <= i || !strings.ContainsAny(name[i:j], "$`") {
		return
	}
	e, err := c.v.parseArithm(name[i+1 : j])
	if err != nil {
		return // Bash fails on it too
	}
	c.withAnchor(at, func() { c.arithm(e, sc) })
}

// callExpr checks a simple command: its assignments, the substitutions in
// its words, then the decoded argv against the rules and wrappers, then
// the paths it names.
func (c *checker) callExpr(x *syntax.CallExpr, sc *scope, in stdin) {
	for _, a := range x.Assigns {
		c.assign(a, sc, len(x.Args) == 0, x)
	}
	for _, w := range x.Args {
		c.word(w, sc, false)
	}
	if len(x.Args) == 0 || c.done() {
		return
	}
	var argv []arg
	for _, w := range x.Args {
		argv = append(argv, c.decode(w, sc)...)
	}
	before := *sc
	c.call(argv, x, sc, in)
	for _, a := range argv {
		if c.done() {
			return
		}
		c.checkDenied(a, &before, x)
	}
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
