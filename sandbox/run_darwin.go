// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// sandboxExec is where macOS ships sandbox-exec.
const sandboxExec = "/usr/bin/sandbox-exec"

// Detect finds /usr/bin/sandbox-exec. It has no version option.
func Detect() (Backend, error) {
	fi, err := os.Stat(sandboxExec)
	if err != nil {
		return Backend{}, fmt.Errorf("sandbox-exec not found at %s: %w", sandboxExec, err)
	}
	if fi.IsDir() || fi.Mode()&0o111 == 0 {
		return Backend{}, fmt.Errorf("%s is not an executable", sandboxExec)
	}
	return Backend{Name: "sandbox-exec", Path: sandboxExec}, nil
}

// command returns the sandbox-exec command line that runs argv under the
// profile [SeatbeltProfile] builds for s, passed with -p. sandbox-exec
// cannot change directory, so the caller starts it in s.Cwd (exec.Cmd's
// Dir); command checks that s.Cwd lies inside the workspace or a grant
// and fails with a [*SetupError] otherwise.
func command(b Backend, s Spec, argv []string) (string, []string, error) {
	if b.Path == "" {
		return "", nil, &SetupError{Op: "backend", Err: errors.New("no sandbox-exec path (call Detect first)")}
	}
	if err := checkCommand(s, argv); err != nil {
		return "", nil, err
	}
	DetectHost(&s)
	profile, err := SeatbeltProfile(withResolved(s))
	if err != nil {
		return "", nil, &SetupError{Op: "profile", Err: err}
	}
	args := append([]string{b.Path, "-p", profile, "--"}, argv...)
	return b.Path, args, nil
}

// withResolved adds the symlink-resolved spelling of each granted and
// denied path: Seatbelt matches real paths, so a workspace reached through
// a symlink would otherwise be denied, and a denied symlink such as
// ~/.ssh -> dotfiles/ssh would otherwise leave its target readable.
func withResolved(s Spec) Spec {
	resolved := func(p string) (string, bool) {
		r, err := filepath.EvalSymlinks(p)
		if err != nil || r == p {
			return "", false
		}
		return r, true
	}
	add := func(paths []string) []string {
		out := append([]string{}, paths...)
		for _, p := range paths {
			if r, ok := resolved(p); ok {
				out = append(out, r)
			}
		}
		return out
	}
	s.Read = add(s.Read)
	s.Write = add(s.Write)
	s.Deny = add(s.Deny)
	if r, ok := resolved(s.Workspace); ok {
		s.Write = append(s.Write, r)
	}
	return s
}

// Prepare returns the sandbox-exec command line for argv (see command);
// Done has nothing to release here.
func Prepare(b Backend, s Spec, argv []string) (*Prepared, error) {
	path, args, err := command(b, s, argv)
	if err != nil {
		return nil, err
	}
	return &Prepared{Path: path, Args: args}, nil
}
