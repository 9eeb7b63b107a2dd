// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package claude

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// errCwdFile marks a cwd file the shim refuses to open.
//
//lint:ignore ST1005 the message starts with a name (Claude), capitalised as names are
var errCwdFile = errors.New("Claude's cwd file")

// OpenCwdFile implements [agents.CwdReporter]: the cwd file must lie in
// Claude's temp dir (the session's private one, else
// CLAUDE_CODE_TMPDIR, else the system's).
func (Agent) OpenCwdFile(name, sessionTmp string, getenv func(string) string) (*os.File, error) {
	tmp := sessionTmp
	if tmp == "" {
		tmp = getenv("CLAUDE_CODE_TMPDIR")
	}
	if tmp == "" {
		tmp = os.TempDir()
	}
	return openCwdFile(name, tmp)
}

// openCwdFile opens Claude's cwd file on the shim's side, where Claude
// reads it back, so that no directory is shared read-write between the
// agent and the command sandbox (escape class: a sandboxed command
// planting a link that Claude, outside, follows). It must be a direct
// child of tmpDir named claude-*-cwd, and a regular file or a new one;
// links are not followed (O_NOFOLLOW) and the parent is resolved first.
func openCwdFile(name, tmpDir string) (*os.File, error) {
	if !filepath.IsAbs(name) || tmpDir == "" {
		return nil, fmt.Errorf("%w %q: not an absolute path in the agent's temp dir", errCwdFile, name)
	}
	base := filepath.Base(name)
	if !strings.HasPrefix(base, "claude-") || !strings.HasSuffix(base, "-cwd") || strings.ContainsAny(base, "/\x00") {
		return nil, fmt.Errorf("%w %q: not named claude-*-cwd", errCwdFile, name)
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(name))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errCwdFile, err)
	}
	want, err := filepath.EvalSymlinks(tmpDir)
	if err != nil || dir != want {
		return nil, fmt.Errorf("%w %q: not in the agent's temp dir %s", errCwdFile, name, tmpDir)
	}
	f, err := os.OpenFile(filepath.Join(dir, base), os.O_WRONLY|os.O_CREATE|os.O_TRUNC|openNoFollow, 0o600)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errCwdFile, err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%w %q: not a regular file", errCwdFile, name)
	}
	return f, nil
}
