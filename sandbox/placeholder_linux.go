// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/lite-sandbox/lite-sandbox/sandbox/guard"
	"golang.org/x/sys/unix"
)

// Placeholders are created on the host by lite-sandbox itself (not by
// bwrap), and each one is recorded with its inode, size and mtime in a
// per-workspace record beside the workspace's lock file. The last
// sandbox of the workspace removes what the record lists and still
// matches; the next sandbox to find the workspace unlocked with a
// record left behind (the launcher was killed with SIGKILL) does the
// same. A path the user has replaced or written since no longer matches
// and is left alone.

// wsLock is a sandbox's shared lock on its workspace.
type wsLock struct {
	f       *os.File
	path    string // the lock file
	record  string // the placeholder record
	guarded string // the guarded paths' record (package guard)
	swept   []Quarantined
	first   bool // no other sandbox of the workspace held it
}

// lockWorkspace takes a shared lock on the workspace's lock file in the
// user's private directory, after removing the leftovers of a crashed
// sandbox when no other sandbox of the workspace runs, or returns nil
// (then placeholders are left in place, which is safe).
func lockWorkspace(ws string) *wsLock {
	dir := privateDir()
	if dir == "" {
		return nil
	}
	sum := sha256.Sum256([]byte(ws))
	base := filepath.Join(dir, hex.EncodeToString(sum[:12]))
	l := &wsLock{path: base + ".lock", record: base + ".placeholders", guarded: guardRecord(base + ".placeholders")}
	// The last user of a lock file removes it; a lock taken on a file
	// that was removed meanwhile is no lock at all, so check that the
	// path still names the locked file, and retry otherwise.
	for range 8 {
		f, err := os.OpenFile(l.path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil
		}
		if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil && sameFile(f, l.path) {
			cleanRecorded(l.record)
			l.swept = append(l.swept, guard.Sweep(l.guarded)...)
			l.swept = append(l.swept, guard.Restore(keptRecord(l.record))...)
			l.first = true
		}
		if err := unix.Flock(int(f.Fd()), unix.LOCK_SH); err != nil {
			f.Close()
			return nil
		}
		if sameFile(f, l.path) {
			l.f = f
			return l
		}
		f.Close()
	}
	return nil
}

// sameFile reports whether the open file f is what path names now.
func sameFile(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Lstat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// release removes the placeholders and the lock file when no other
// sandbox of the workspace runs, quarantines what lies at a guarded path
// then, and releases the lock. It returns what it quarantined.
func (l *wsLock) release() []Quarantined {
	defer l.f.Close()
	if unix.Flock(int(l.f.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil {
		return nil // another sandbox of this workspace still runs
	}
	cleanRecorded(l.record)
	moved := guard.Sweep(l.guarded)
	moved = append(moved, guard.Restore(keptRecord(l.record))...)
	if sameFile(l.f, l.path) {
		os.Remove(l.path)
	}
	return moved
}

// guardRecord is the guarded paths' record beside the placeholder
// record (guard.Record).
func guardRecord(record string) string {
	return strings.TrimSuffix(record, ".placeholders") + ".guarded"
}

// keptRecord is the copies' record beside the placeholder record
// (guard.Share).
func keptRecord(record string) string {
	return strings.TrimSuffix(record, ".placeholders") + ".kept"
}

// createPlaceholders creates on the host the placeholders of ms that do
// not exist yet (directories empty, files with their placeholderContent,
// read-only) and appends each to the record, before bwrap mounts on
// them.
func createPlaceholders(ms []Mount, record string) {
	var b strings.Builder
	for _, m := range ms {
		if strings.ContainsAny(m.Dst, "\n") {
			continue
		}
		switch m.Kind {
		case PlaceholderDir:
			if os.Mkdir(m.Dst, 0o755) != nil {
				continue
			}
		case PlaceholderFile:
			f, err := os.OpenFile(m.Dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o444)
			if err != nil {
				continue
			}
			_, werr := f.WriteString(placeholderContent(m.Dst))
			if cerr := f.Close(); werr != nil || cerr != nil {
				os.Remove(m.Dst)
				continue
			}
		default:
			continue
		}
		if fp, ok := fingerprint(m.Dst); ok {
			b.WriteString(fp + " " + m.Dst + "\n")
		}
	}
	if b.Len() == 0 {
		return
	}
	f, err := os.OpenFile(record, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return
	}
	// One write on an O_APPEND descriptor: concurrent sandboxes of the
	// workspace never interleave their lines.
	f.WriteString(b.String())
	f.Close()
}

// fingerprint is "kind dev ino size mtime" of p.
func fingerprint(p string) (string, bool) {
	fi, err := os.Lstat(p)
	if err != nil {
		return "", false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	kind := "f"
	if fi.IsDir() {
		kind = "d"
	} else if !fi.Mode().IsRegular() {
		return "", false
	}
	return fmt.Sprintf("%s %d %d %d %d", kind, st.Dev, st.Ino, fi.Size(), fi.ModTime().UnixNano()), true
}

// cleanRecorded removes every recorded placeholder that is still what
// was created (same inode, size and mtime; a file still holding its
// placeholder content, a directory still empty), then the record.
func cleanRecorded(record string) {
	data, err := os.ReadFile(record)
	if err != nil {
		return
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		f := strings.SplitN(lines[i], " ", 6)
		if len(f) != 6 || !filepath.IsAbs(f[5]) {
			continue
		}
		p := f[5]
		now, ok := fingerprint(p)
		if !ok || now != strings.Join(f[:5], " ") {
			continue // gone, replaced or written since: the user's now
		}
		if f[0] == "f" && !hasContent(p, placeholderContent(p)) {
			continue
		}
		os.Remove(p) // fails on a non-empty directory, as it should
	}
	os.Remove(record)
}

// contentFile returns a private read-only file in dir holding c, made
// once, or "".
func contentFile(dir, c string) string {
	sum := sha256.Sum256([]byte(c))
	p := filepath.Join(dir, "placeholder-"+hex.EncodeToString(sum[:6]))
	if b, err := os.ReadFile(p); err == nil && string(b) == c {
		return p
	}
	os.Remove(p)
	writeNew(p, c, 0o444)
	if b, err := os.ReadFile(p); err == nil && string(b) == c {
		return p
	}
	return ""
}
