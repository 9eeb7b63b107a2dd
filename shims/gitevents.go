// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
)

// Git's trace2 events of one command (issue #31 finding 5): the command
// gets GIT_TRACE2_EVENT naming a file in a directory the sandbox binds
// read-write ([sandbox.Spec.GitEvents]); after it, explain.GitEventLines
// names a git command that could not write git's configuration, which a
// program may have run without saying so.

// sessionGitEvents returns a new, unused file name in the session's git
// events directory (made by the launcher with the worker's sandbox), or
// "" when the session has none.
func sessionGitEvents(sessionDir string) string {
	dir := sandbox.SessionGitEvents(sessionDir)
	if dir == "" {
		return ""
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return ""
	}
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return ""
	}
	return filepath.Join(dir, hex.EncodeToString(b[:]))
}

// readGitEvents returns the command's git events when one of them may
// be a refused configuration write, else nil: most commands run no git,
// or git without such an error, and then nothing else is read.
func (s *Shim) readGitEvents() []byte {
	if s.gitEvents == "" {
		return nil
	}
	f, err := sandbox.OpenGitEvents(s.gitEvents)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 8<<20))
	if err != nil || !bytes.Contains(data, []byte(`config file `)) {
		return nil
	}
	return data
}
