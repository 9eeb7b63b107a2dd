// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package ring

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/internal/esc"
)

// kept is the data files of one state layer (agents.State.Keep): base
// name globs of the files directly in dir that the agent writes as
// data, each with what of it is data. They live in the layer's scratch
// for the session, a copy of the real ones, so that the agent may
// replace them atomically (a rename onto a bind mount fails), and what
// their checks let through goes back afterwards (docs/ring.md "The
// agent's state").
type kept struct {
	dir   string
	files []agents.KeptFile
}

// file returns the declaration name matches.
func (k kept) file(name string) (agents.KeptFile, bool) {
	for _, f := range k.files {
		if f.Matches(name) {
			return f, true
		}
	}
	return agents.KeptFile{}, false
}

// matches says whether name is one of k's data files.
func (k kept) matches(name string) bool { _, ok := k.file(name); return ok }

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
		if err := copyIn(src, filepath.Join(scratch, e.Name())); err != nil {
			return fmt.Errorf("launch: ring state: %w", err)
		}
	}
	return nil
}

// copyIn copies the host's file into the scratch, in its mode.
func copyIn(src, dst string) error {
	f, err := os.OpenFile(src, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	return writeAtomic(dst, f, owner{mode: fi.Mode().Perm(), uid: -1, gid: -1})
}

// persistKept puts back what the checks of k's data files let through
// of the session's copies, each replaced atomically in the host file's
// mode and owner: called when no process of the ring is alive, so
// nothing can swap one for a link in between. A file that is refused
// stays as it was on the host, said on w; nothing else is lost.
func persistKept(w io.Writer, k kept, scratch string) {
	ents, err := os.ReadDir(scratch)
	if err != nil {
		return
	}
	for _, e := range ents {
		src := filepath.Join(scratch, e.Name())
		f, ok := k.file(e.Name())
		if !ok || !k.isKept(src) {
			continue
		}
		dst := filepath.Join(k.dir, e.Name())
		if fi, err := os.Lstat(dst); err == nil && !fi.Mode().IsRegular() {
			esc.Fprintf(w, "lite-sandbox: kept %s in the session only: %s is not a regular file\n", e.Name(), dst)
			continue
		}
		if err := keepBack(f, src, dst); err != nil {
			esc.Fprintf(w, "lite-sandbox: did not keep the session's %s (%v); the host's file is as it was\n", dst, err)
		}
	}
}

// keepBack checks the session's copy src against f and, when it passes,
// replaces dst with it (or with what f's Merge makes of it). The copy
// is streamed and bounded (escape class 53), and dst keeps its mode and
// owner, a new file 0600 (class 56).
func keepBack(f agents.KeptFile, src, dst string) error {
	in, err := os.OpenFile(src, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	if err := bounded(fi, f.Bound()); err != nil {
		return err
	}
	o := hostOwner(dst)
	switch {
	case f.Merge != nil:
		after, err := io.ReadAll(io.LimitReader(in, f.Bound()))
		if err != nil {
			return err
		}
		before, err := readHost(dst)
		if err != nil {
			return err
		}
		out, err := f.Merge(before, after)
		if err != nil {
			return err
		}
		if before != nil && bytes.Equal(out, before) {
			return nil
		}
		return writeAtomic(dst, bytes.NewReader(out), o)
	case f.Format != nil:
		if err := f.Format(io.LimitReader(in, f.Bound())); err != nil {
			return err
		}
		if _, err := in.Seek(0, io.SeekStart); err != nil {
			return err
		}
		return writeAtomic(dst, io.LimitReader(in, f.Bound()), o)
	}
	return errors.New("its adapter declares no check of what is data")
}

// bounded refuses a file over max bytes, or one with holes of more than
// a MiB (a sparse file claims a size it never wrote).
func bounded(fi os.FileInfo, max int64) error {
	if !fi.Mode().IsRegular() {
		return errors.New("not a regular file")
	}
	if fi.Size() > max {
		return fmt.Errorf("%d bytes, over the bound of %d", fi.Size(), max)
	}
	if used, ok := allocated(fi); ok && fi.Size()-used > 1<<20 {
		return fmt.Errorf("a sparse file: %d bytes, %d allocated", fi.Size(), used)
	}
	return nil
}

// readHost reads the host's file before the copy-back, bounded; nil
// when there is none.
func readHost(p string) ([]byte, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|noFollow, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, agents.MaxMerged+1))
	if err == nil && len(b) > agents.MaxMerged {
		err = errors.New("the host's file is over the bound")
	}
	return b, err
}
