// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

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

// keptNode is the copy of one file system entry: its type and
// permission bits, a regular file's content, a link's target, a
// directory's entries.
type keptNode struct {
	mode os.FileMode
	data []byte
	link string
	kids map[string]*keptNode
}

// kept is one existing protected path and its copy.
type kept struct {
	root, path string
	copy       *keptNode
}

// snapshot copies p without following links; budget is what may still
// be read. A missing p is (nil, nil).
func snapshot(p string, budget *int) (*keptNode, error) {
	fi, err := os.Lstat(p)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, unix.ENOTDIR) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	n := &keptNode{mode: fi.Mode() & (os.ModeType | os.ModePerm)}
	switch {
	case fi.Mode().IsRegular():
		f, err := os.OpenFile(p, os.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
			return &keptNode{mode: os.ModeIrregular}, nil // swapped meanwhile: differs
		}
		n.data, err = io.ReadAll(io.LimitReader(f, int64(*budget)+1))
		if err != nil {
			return nil, err
		}
		if *budget -= len(n.data); *budget < 0 {
			return nil, fmt.Errorf("%s: protected paths too large to keep a copy of (%d MiB at most)", p, keptMax>>20)
		}
	case fi.Mode()&os.ModeSymlink != 0:
		if n.link, err = os.Readlink(p); err != nil {
			return nil, err
		}
	case fi.IsDir():
		ents, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		n.kids = map[string]*keptNode{}
		for _, e := range ents {
			k, err := snapshot(filepath.Join(p, e.Name()), budget)
			if err != nil {
				return nil, err
			}
			if k != nil {
				n.kids[e.Name()] = k
			}
		}
	}
	return n, nil
}

// same reports whether two copies are equal.
func (n *keptNode) same(o *keptNode) bool {
	if n == nil || o == nil {
		return n == o
	}
	if n.mode != o.mode || n.link != o.link || !bytes.Equal(n.data, o.data) || len(n.kids) != len(o.kids) {
		return false
	}
	for name, k := range n.kids {
		if !k.same(o.kids[name]) {
			return false
		}
	}
	return true
}

// dirs lists p and the directories below it in the copy, for watches.
func (n *keptNode) dirs(p string) []string {
	if n == nil || !n.mode.IsDir() {
		return nil
	}
	out := []string{p}
	for name, k := range n.kids {
		out = append(out, k.dirs(filepath.Join(p, name))...)
	}
	return out
}

// make creates the copy at name in the directory dir (never following
// a link: the sandbox may race the launcher there).
func (n *keptNode) make(dir int, name string) error {
	perm := uint32(n.mode.Perm())
	switch {
	case n.mode.IsRegular():
		fd, err := unix.Openat(dir, name, unix.O_CREAT|unix.O_EXCL|unix.O_WRONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		if err != nil {
			return err
		}
		f := os.NewFile(uintptr(fd), name)
		_, werr := f.Write(n.data)
		cerr := unix.Fchmod(fd, perm)
		if err := f.Close(); werr != nil || cerr != nil || err != nil {
			return errors.Join(werr, cerr, err)
		}
		return nil
	case n.mode&os.ModeSymlink != 0:
		return unix.Symlinkat(n.link, dir, name)
	case n.mode.IsDir():
		if err := unix.Mkdirat(dir, name, 0o700); err != nil {
			return err
		}
		fd, err := unix.Openat(dir, name, unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return err
		}
		defer unix.Close(fd)
		for k, c := range n.kids {
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
func keep(k kept, qdir string) (Quarantined, bool) {
	budget := keptMax
	now, err := snapshot(k.path, &budget)
	if err == nil && k.copy.same(now) {
		return Quarantined{}, false
	}
	q := Quarantined{Path: k.path, Restored: true}
	if now != nil || err != nil {
		moved, ok := quarantine(k.root, k.path, qdir)
		if !ok {
			return Quarantined{}, false
		}
		q.To = moved.To
	}
	dir, err := openBelow(k.root, filepath.Dir(k.path))
	if err != nil {
		return Quarantined{}, false // the directory itself is gone: nothing to restore into
	}
	defer unix.Close(dir)
	var rnd [8]byte
	rand.Read(rnd[:])
	tmp := ".lite-sandbox-restore-" + hex.EncodeToString(rnd[:])
	if err := k.copy.make(dir, tmp); err != nil {
		os.RemoveAll(fmt.Sprintf("/proc/self/fd/%d/%s", dir, tmp))
		return Quarantined{}, false
	}
	name := filepath.Base(k.path)
	for range 8 {
		if unix.Renameat2(dir, tmp, dir, name, unix.RENAME_NOREPLACE) == nil {
			return q, true
		}
		// Made again meanwhile: that goes to the quarantine too.
		if _, ok := quarantine(k.root, k.path, qdir); !ok {
			break
		}
	}
	os.RemoveAll(fmt.Sprintf("/proc/self/fd/%d/%s", dir, tmp))
	return q, true
}

// keptPaths copies the protected paths of s that exist inside the
// workspace (outside it they stay Landlock's), and returns Guard mounts
// for those that do not (as [protectMounts] would give them).
func keptPaths(s Spec) ([]kept, []Mount, error) {
	var ks []kept
	var missing []Mount
	budget := keptMax
	ws := s.Workspace
	for _, pr := range s.Protect {
		// DetectHost has dropped what the user unprotected.
		if pr.Home || pr.Path == ws || !Within(pr.Path, ws) {
			continue
		}
		c, err := snapshot(pr.Path, &budget)
		if err != nil {
			return nil, nil, fmt.Errorf("protected path %s: %w", pr.Path, err)
		}
		if c != nil {
			ks = append(ks, kept{root: ws, path: pr.Path, copy: c})
			continue
		}
		rel := strings.TrimPrefix(pr.Path, strings.TrimSuffix(ws, "/")+"/")
		if strings.HasPrefix(rel, ".git/") {
			if fi, err := os.Lstat(filepath.Join(ws, ".git")); err != nil || !fi.IsDir() {
				continue // not a repository: what git init makes is the agent's (as protectMounts)
			}
		}
		missing = append(missing, Mount{Kind: Guard, Src: ws, Dst: pr.Path})
	}
	return ks, missing, nil
}
