// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package config

import (
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
	"github.com/lite-sandbox/lite-sandbox/shims/validator"
)

// maxScriptFile bounds one script file the validator reads for a
// command that names it (as the shim's own `sh FILE`, shims/forms.go).
const maxScriptFile = 2 << 20

// workspaceScripts reads the script files that commands name (bash x.sh,
// ./y, source f; docs/validator.md §4) for the validator: regular files
// inside the workspace only, symlinks resolved, at most maxScriptFile
// bytes. Nothing outside the workspace is read: the judge runs in the
// launcher, and a file there is not what the sandbox shows (its /tmp,
// its home), nor something a reason may quote. A FIFO is never opened
// for reading in a way that blocks.
func workspaceScripts(workspace string) validator.ScriptReader {
	if workspace == "" {
		return nil
	}
	return func(abs string) (string, bool) {
		ws, err := filepath.EvalSymlinks(workspace)
		if err != nil {
			return "", false
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil || !hostpath.Within(real, ws) {
			return "", false
		}
		if fi, err := os.Stat(real); err != nil || !fi.Mode().IsRegular() || fi.Size() > maxScriptFile {
			return "", false
		}
		f, err := os.OpenFile(real, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			return "", false
		}
		defer f.Close()
		if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
			return "", false // swapped for something else since the Stat
		}
		b, err := io.ReadAll(io.LimitReader(f, maxScriptFile+1))
		if err != nil || len(b) > maxScriptFile {
			return "", false
		}
		return string(b), true
	}
}
