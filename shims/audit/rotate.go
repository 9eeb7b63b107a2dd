// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package audit

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
)

// Rotation by size. Many processes append at once (one shim per
// command, and the launcher of each session), so an in-process rotator
// such as lumberjack is not enough: two processes could both rename the
// file, and one would lose the other's rotation. Every append and every
// rotation therefore happens under an exclusive flock on a lock file
// beside the log: a record is one write on an O_APPEND descriptor, and
// the writer that takes the log over maxBytes renames the files before
// it lets go of the lock, so no writer ever writes into a file being
// renamed, and no record is lost or torn.
var (
	// maxBytes is the size past which the log is rotated.
	maxBytes int64 = 8 << 20
	// keepRotated is how many rotated files (audit.jsonl.1 newest ...
	// .keepRotated oldest) are kept beside the current one.
	keepRotated = 3
)

// lockName is the lock file in the log's directory.
const lockName = "audit.lock"

// appendRecord writes one encoded record (a whole line) to the log in
// dir, rotating it when it has grown past maxBytes.
func appendRecord(dir string, line []byte) error {
	return appendRotated(dir, FileName, lockName, line, maxBytes, keepRotated)
}

// AppendRotated appends line (a whole line) to the log file at path the
// way the audit log is written: under an exclusive flock on path+".lock",
// rotated to path.1 ... path.keep when it has grown past maxSize. The
// session's egress.jsonl is written with it (sandbox/egress reads it).
func AppendRotated(path string, line []byte, maxSize int64, keep int) error {
	dir, name := filepath.Split(path)
	return appendRotated(filepath.Clean(dir), name, name+".lock", line, maxSize, keep)
}

func appendRotated(dir, name, lockFile string, line []byte, maxSize int64, keep int) error {
	lock, err := openCreate(dir, lockFile, os.O_RDWR)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := lockExclusive(lock); err != nil {
		return err
	}
	f, err := openCreate(dir, name, os.O_WRONLY|os.O_APPEND)
	if err != nil {
		return err
	}
	_, err = f.Write(line)
	var size int64
	if fi, serr := f.Stat(); serr == nil {
		size = fi.Size()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if size >= maxSize {
		return rotate(filepath.Join(dir, name), keep)
	}
	return nil
}

// rotate shifts base (audit.jsonl) to base.1, .1 to .2 and so on,
// dropping the oldest. The caller holds the lock.
func rotate(base string, keep int) error {
	keep = max(keep, 1)
	os.Remove(base + "." + strconv.Itoa(keep))
	for i := keep - 1; i >= 1; i-- {
		err := os.Rename(base+"."+strconv.Itoa(i), base+"."+strconv.Itoa(i+1))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return os.Rename(base, base+".1")
}

// openCreate opens dir/name, creating the file (0600) and the directory
// (0700) when missing.
func openCreate(dir, name string, flag int) (*os.File, error) {
	p := filepath.Join(dir, name)
	f, err := os.OpenFile(p, flag|os.O_CREATE, 0o600)
	if errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, err
		}
		f, err = os.OpenFile(p, flag|os.O_CREATE, 0o600)
	}
	return f, err
}

// Files returns the log's files in dir that exist, oldest first: the
// rotated ones, then the current one.
func Files(dir string) []string {
	var out []string
	base := filepath.Join(dir, FileName)
	for i := max(keepRotated, 1) + 1; i >= 1; i-- {
		if fi, err := os.Stat(base + "." + strconv.Itoa(i)); err == nil && fi.Mode().IsRegular() {
			out = append(out, base+"."+strconv.Itoa(i))
		}
	}
	if fi, err := os.Stat(base); err == nil && fi.Mode().IsRegular() {
		out = append(out, base)
	}
	return out
}
