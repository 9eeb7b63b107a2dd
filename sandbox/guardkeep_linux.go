// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"bytes"
	"crypto/rand"
	"encoding/gob"
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
	Mode os.FileMode
	Data []byte
	Link string
	Kids map[string]*keptNode
}

// kept is one existing protected path and its copy.
type kept struct {
	Root, Path string
	Copy       *keptNode
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
	n := &keptNode{Mode: fi.Mode() & (os.ModeType | os.ModePerm)}
	switch {
	case fi.Mode().IsRegular():
		f, err := os.OpenFile(p, os.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
			return &keptNode{Mode: os.ModeIrregular}, nil // swapped meanwhile: differs
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
		n.Kids = map[string]*keptNode{}
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
func (n *keptNode) same(o *keptNode) bool {
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
func (n *keptNode) dirs(p string) []string {
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
func (n *keptNode) make(dir int, name string) error {
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
func keep(k kept, qdir string) (Quarantined, bool) {
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
			ks = append(ks, kept{Root: ws, Path: pr.Path, Copy: c})
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

// keptFile is the copies the first sandbox of a workspace took, left
// beside the workspace's lock file (the user's private directory).
type keptFile struct {
	Qdir string
	Kept []kept
}

// keptRecord is the copies' record beside the placeholder record.
func keptRecord(record string) string {
	return strings.TrimSuffix(record, ".placeholders") + ".kept"
}

// shareKept returns the copies this sandbox holds its paths to. The
// first sandbox of the workspace records its own; a later one takes the
// first's for the paths both have: two guards with different copies
// would undo each other's restores, and a copy taken in another
// sandbox's window would be the changed version.
func shareKept(l *wsLock, ks []kept, qdir string) []kept {
	rec := keptRecord(l.record)
	if l.first {
		if len(ks) > 0 {
			writeKept(rec, keptFile{Qdir: qdir, Kept: ks})
		}
		return ks
	}
	kf, err := readKept(rec)
	if err != nil {
		return ks
	}
	for i := range ks {
		for _, o := range kf.Kept {
			if o.Path == ks[i].Path && o.Root == ks[i].Root {
				ks[i].Copy = o.Copy
			}
		}
	}
	return ks
}

// checkRecordedKept puts back what differs from the recorded copies and
// removes the record: the last sandbox of a workspace calls it, and the
// first after a launcher was killed.
func checkRecordedKept(rec string) []Quarantined {
	kf, err := readKept(rec)
	if err != nil {
		return nil
	}
	var out []Quarantined
	for _, k := range kf.Kept {
		if !filepath.IsAbs(k.Root) || !Below(k.Path, k.Root) || k.Copy == nil {
			continue
		}
		if q, ok := keep(k, kf.Qdir); ok {
			out = append(out, q)
		}
	}
	os.Remove(rec)
	return out
}

func writeKept(rec string, kf keptFile) {
	var b bytes.Buffer
	if gob.NewEncoder(&b).Encode(kf) != nil {
		return
	}
	tmp := rec + ".tmp"
	if os.WriteFile(tmp, b.Bytes(), 0o600) == nil {
		os.Rename(tmp, rec)
	}
}

func readKept(rec string) (keptFile, error) {
	var kf keptFile
	f, err := os.Open(rec)
	if err != nil {
		return kf, err
	}
	defer f.Close()
	err = gob.NewDecoder(io.LimitReader(f, 2*keptMax)).Decode(&kf)
	return kf, err
}
