// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package ring

import (
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"

	"github.com/lite-sandbox/lite-sandbox/internal/esc"
)

// kept is the data files of one state layer (agents.State.Keep): base
// name globs of the files directly in dir that the agent writes as
// data. They live in the layer's scratch for the session, a copy of the
// real ones, so that the agent may replace them atomically (a rename
// onto a bind mount fails), and go back afterwards.
type kept struct {
	dir      string
	patterns []string
}

// matches says whether name is one of k's data files.
func (k kept) matches(name string) bool {
	for _, p := range k.patterns {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// isKept says whether p, in dir, is a regular file of k's (not a link:
// one would lead the agent's next start elsewhere).
func (k kept) isKept(p string) bool {
	if !k.matches(filepath.Base(p)) {
		return false
	}
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode().IsRegular()
}

// copyKept copies k's data files from the real directory into the
// layer's scratch.
func copyKept(k kept, scratch string) error {
	ents, err := os.ReadDir(k.dir)
	if err != nil {
		return nil // nothing to keep
	}
	for _, e := range ents {
		src := filepath.Join(k.dir, e.Name())
		if !k.isKept(src) {
			continue
		}
		if err := replaceFile(src, filepath.Join(scratch, e.Name())); err != nil {
			return fmt.Errorf("launch: ring state: %w", err)
		}
	}
	return nil
}

// persistKept copies the data files the session left in the scratch
// back into the real directory, each replaced atomically: called when no
// process of the ring is alive, so nothing can swap one for a link in
// between. Failures are said on w and lose nothing else.
func persistKept(w io.Writer, k kept, scratch string) {
	ents, err := os.ReadDir(scratch)
	if err != nil {
		return
	}
	for _, e := range ents {
		src := filepath.Join(scratch, e.Name())
		if !k.isKept(src) {
			continue
		}
		dst := filepath.Join(k.dir, e.Name())
		if fi, err := os.Lstat(dst); err == nil && !fi.Mode().IsRegular() {
			esc.Fprintf(w, "lite-sandbox: kept %s in the session only: %s is not a regular file\n", e.Name(), dst)
			continue
		}
		if err := replaceFile(src, dst); err != nil {
			esc.Fprintf(w, "lite-sandbox: could not keep %s: %v\n", dst, err)
		}
	}
}

// replaceFile writes src's content and mode to dst atomically.
func replaceFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	fi, err := os.Lstat(src)
	if err != nil {
		return err
	}
	return writeAtomic(dst, b, fi.Mode().Perm())
}
