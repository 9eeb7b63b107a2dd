// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"os"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
)

// prepareWithGitEvents prepares the worker's sandbox (argv, with the
// session's git events directory in spec) and returns it and what
// removes that directory after the session: the judge gives each command a
// file there and reads git's events after it (issue #31: a write of
// .git/config refused inside a program, such as husky's `git config
// core.hooksPath`, is explained; docs/confinement.md). Without one,
// nothing is explained and the commands run the same.
func prepareWithGitEvents(b sandbox.Backend, spec sandbox.Spec, sessionDir string, argv []string) (*sandbox.Prepared, func(), error) {
	dir, everr := sandbox.MakeSessionGitEvents(sessionDir)
	if everr == nil {
		spec.GitEvents = dir
	}
	drop := func() {
		if everr == nil {
			os.RemoveAll(dir)
		}
	}
	prep, err := sandbox.Prepare(b, spec, argv)
	if err != nil {
		drop()
		return nil, nil, err
	}
	return prep, drop, nil
}
