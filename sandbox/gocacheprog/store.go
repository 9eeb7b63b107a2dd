// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package gocacheprog

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The go command's disk format (the go command's "cache" package): the entry of
// action A is DIR/aa/A-a, one line "v1 <A> <O> <size> <unixnano>\n"
// (hex IDs, the numbers space-padded to 20), and its output O is the
// file DIR/oo/O-d, whose SHA-256 is O.
const (
	idLen     = sha256.Size
	entryLen  = 2 + 1 + 2*idLen + 1 + 2*idLen + 1 + 20 + 1 + 20 + 1
	entryForm = "v1 %x %x %20d %20d\n"
)

// entry is an action's entry as found on disk.
type entry struct {
	out  []byte
	size int64
	time time.Time
	path string // the output file
}

func (e entry) response(id int64) response {
	t := e.time
	return response{ID: id, OutputID: e.out, Size: e.size, Time: &t, DiskPath: e.path}
}

// file is the path of id's file of kind ("a" or "d") below dir.
func file(dir string, id []byte, kind string) string {
	h := hex.EncodeToString(id)
	return filepath.Join(dir, h[:2], h+"-"+kind)
}

// lookup finds action's entry below dir (the layer): its output must
// be a regular file of the entry's size, as the go command itself checks.
func lookup(dir string, action []byte) (entry, bool) {
	if len(action) != idLen {
		return entry{}, false
	}
	e, err := readEntry(file(dir, action, "a"), action)
	if err != nil {
		return entry{}, false
	}
	e.path = file(dir, e.out, "d")
	fi, err := os.Lstat(e.path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != e.size {
		return e, false
	}
	return e, true
}

// readEntry reads and parses the entry file p of action.
func readEntry(p string, action []byte) (entry, error) {
	f, err := os.Open(p)
	if err != nil {
		return entry{}, err
	}
	defer f.Close()
	b := make([]byte, entryLen+1)
	n, _ := io.ReadFull(f, b)
	return parseEntry(b[:n], action)
}

// parseEntry parses one entry line of action.
func parseEntry(b, action []byte) (entry, error) {
	if len(b) != entryLen || b[len(b)-1] != '\n' {
		return entry{}, errors.New("entry: wrong length")
	}
	f := strings.Split(string(b[:len(b)-1]), " ")
	f = append(f[:3], strings.Fields(strings.Join(f[3:], " "))...)
	if len(f) != 5 || f[0] != "v1" {
		return entry{}, errors.New("entry: not v1")
	}
	id, err := hex.DecodeString(f[1])
	if err != nil || !bytes.Equal(id, action) {
		return entry{}, errors.New("entry: another action")
	}
	out, err := hex.DecodeString(f[2])
	if err != nil || len(out) != idLen {
		return entry{}, errors.New("entry: bad output ID")
	}
	size, err1 := strconv.ParseInt(f[3], 10, 64)
	nano, err2 := strconv.ParseInt(f[4], 10, 64)
	if err1 != nil || err2 != nil || size < 0 {
		return entry{}, errors.New("entry: bad size or time")
	}
	return entry{out: out, size: size, time: time.Unix(0, nano)}, nil
}

// store writes body as output out of action below dir (output first,
// then the entry, each by rename, so that a reader never sees a partial
// file) and returns the output's path.
func store(dir string, action, out, body []byte, now time.Time) (string, error) {
	if len(action) != idLen || len(out) != idLen {
		return "", errors.New("put: action and output IDs must be SHA-256 sized")
	}
	d := file(dir, out, "d")
	if fi, err := os.Stat(d); err != nil || fi.Size() != int64(len(body)) {
		if err := writeFile(d, body); err != nil {
			return "", err
		}
	}
	line := fmt.Sprintf(entryForm, action, out, len(body), now.UnixNano())
	if err := writeFile(file(dir, action, "a"), []byte(line)); err != nil {
		return "", err
	}
	return d, nil
}

func writeFile(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		return fmt.Errorf("put: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".put-*")
	if err != nil {
		return fmt.Errorf("put: %w", err)
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("put: %w", err)
	}
	return nil
}

// touch marks p used, at most once an hour, as the go command does for
// its own entries (the go command's "cache" package, mtimeInterval).
func touch(p string, now time.Time) {
	if fi, err := os.Stat(p); err == nil && now.Sub(fi.ModTime()) >= time.Hour {
		os.Chtimes(p, now, now)
	}
}
