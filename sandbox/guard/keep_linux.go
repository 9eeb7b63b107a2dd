// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package guard

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
	"golang.org/x/sys/unix"
)

// Under the Landlock backend the workspace root and .git are writable as
// whole hierarchies (new files at the root, git's index.lock; #31's
// promise), and Landlock cannot take a right away below a grant, so the
// protected paths that exist there are held by the launcher's guard: a
// copy taken before the sandbox starts, and whatever differs from it
// (changed, replaced, removed) is moved to the quarantine and the copy
// put back at once (docs/limits.md, "Protected paths under the Landlock
// backend").

// keptMax bounds the copies of one sandbox's protected paths: they are
// held in memory.
const keptMax = 32 << 20

// Node is the copy of one file system entry: its type and permission
// bits, a regular file's content, a link's target, a directory's
// entries. Its fields are exported for the record (encoding/gob).
type Node struct {
	Mode os.FileMode
	Data []byte
	Link string
	Kids map[string]*Node
}

// Kept is one existing protected path, strictly below Root, and its
// copy.
type Kept struct {
	Root, Path string
	Copy       *Node
}

// Copier takes the copies of one sandbox's protected paths, within one
// budget (keptMax in all).
type Copier struct{ left int }

// NewCopier returns a Copier with the whole budget.
func NewCopier() *Copier { return &Copier{left: keptMax} }

// Take copies p, strictly below root, without following links. It
// returns nil when p does not exist (it is then guarded as a [Path]),
// and an error when p cannot be read or the copies would exceed the
// budget: the sandbox is refused rather than started with a protected
// path held to nothing.
func (c *Copier) Take(root, p string) (*Kept, error) {
	if !hostpath.Below(p, root) {
		return nil, fmt.Errorf("protected path %s: not below %s", p, root)
	}
	n, err := snapshot(p, &c.left)
	if err != nil {
		return nil, fmt.Errorf("protected path %s: %w", p, err)
	}
	if n == nil {
		return nil, nil
	}
	return &Kept{Root: root, Path: p, Copy: n}, nil
}

// snapshot copies p without following links; budget is what may still
// be read. A missing p is (nil, nil).
func snapshot(p string, budget *int) (*Node, error) {
	fi, err := os.Lstat(p)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, unix.ENOTDIR) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	n := &Node{Mode: fi.Mode() & (os.ModeType | os.ModePerm)}
	switch {
	case fi.Mode().IsRegular():
		f, err := os.OpenFile(p, os.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
			return &Node{Mode: os.ModeIrregular}, nil // swapped meanwhile: differs
		}
		n.Data, err = io.ReadAll(io.LimitReader(f, int64(*budget)+1))
		if err != nil {
			return nil, err
		}
		if *budget -= len(n.Data); *budget < 0 {
			return nil, fmt.Errorf("%s: protected paths too large to keep a copy of (%d MiB at most)", p, keptMax>>20)
		}
	case fi.Mode()&os.ModeSymlink != 0:
		if n.Link, err = os.Readlink(p); err != nil {
			return nil, err
		}
	case fi.IsDir():
		ents, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		n.Kids = map[string]*Node{}
		for _, e := range ents {
			k, err := snapshot(filepath.Join(p, e.Name()), budget)
			if err != nil {
				return nil, err
			}
			if k != nil {
				n.Kids[e.Name()] = k
			}
		}
	}
	return n, nil
}

// same reports whether two copies are equal.
func (n *Node) same(o *Node) bool {
	if n == nil || o == nil {
		return n == o
	}
	if n.Mode != o.Mode || n.Link != o.Link || !bytes.Equal(n.Data, o.Data) || len(n.Kids) != len(o.Kids) {
		return false
	}
	for name, k := range n.Kids {
		if !k.same(o.Kids[name]) {
			return false
		}
	}
	return true
}

// dirs lists p and the directories below it in the copy, for watches.
func (n *Node) dirs(p string) []string {
	if n == nil || !n.Mode.IsDir() {
		return nil
	}
	out := []string{p}
	for name, k := range n.Kids {
		out = append(out, k.dirs(filepath.Join(p, name))...)
	}
	return out
}

// make creates the copy at name in the directory dir (never following
// a link: the sandbox may race the launcher there).
func (n *Node) make(dir int, name string) error {
	perm := uint32(n.Mode.Perm())
	switch {
	case n.Mode.IsRegular():
		fd, err := unix.Openat(dir, name, unix.O_CREAT|unix.O_EXCL|unix.O_WRONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		if err != nil {
			return err
		}
		f := os.NewFile(uintptr(fd), name)
		_, werr := f.Write(n.Data)
		cerr := unix.Fchmod(fd, perm)
		if err := f.Close(); werr != nil || cerr != nil || err != nil {
			return errors.Join(werr, cerr, err)
		}
		return nil
	case n.Mode&os.ModeSymlink != 0:
		return unix.Symlinkat(n.Link, dir, name)
	case n.Mode.IsDir():
		if err := unix.Mkdirat(dir, name, 0o700); err != nil {
			return err
		}
		fd, err := unix.Openat(dir, name, unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return err
		}
		defer unix.Close(fd)
		for k, c := range n.Kids {
			if err := c.make(fd, k); err != nil {
				return err
			}
		}
		return unix.Fchmod(fd, perm)
	}
	return nil
}

// keep checks one kept path: when it differs from its copy, what is
// there is moved to the quarantine and the copy put back. It reports
// what it did, if anything.
func keep(k Kept, qdir string) (Quarantined, bool) {
	budget := keptMax
	now, err := snapshot(k.Path, &budget)
	if err == nil && k.Copy.same(now) {
		return Quarantined{}, false
	}
	q := Quarantined{Path: k.Path, Restored: true, Gone: now == nil && err == nil}
	if now != nil || err != nil {
		moved, ok := quarantine(k.Root, k.Path, qdir)
		if !ok {
			return Quarantined{}, false
		}
		q.To = moved.To
	}
	dir, err := openBelow(k.Root, filepath.Dir(k.Path))
	if err != nil {
		return Quarantined{}, false // the directory itself is gone: nothing to restore into
	}
	defer unix.Close(dir)
	var rnd [8]byte
	rand.Read(rnd[:])
	tmp := ".lite-sandbox-restore-" + hex.EncodeToString(rnd[:])
	if err := k.Copy.make(dir, tmp); err != nil {
		os.RemoveAll(fmt.Sprintf("/proc/self/fd/%d/%s", dir, tmp))
		return Quarantined{}, false
	}
	name := filepath.Base(k.Path)
	for range 8 {
		if unix.Renameat2(dir, tmp, dir, name, unix.RENAME_NOREPLACE) == nil {
			return q, true
		}
		// Made again meanwhile: that goes to the quarantine too.
		if _, ok := quarantine(k.Root, k.Path, qdir); !ok {
			break
		}
	}
	os.RemoveAll(fmt.Sprintf("/proc/self/fd/%d/%s", dir, tmp))
	return q, true
}
