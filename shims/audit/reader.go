// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Reader reads the log in a directory from the start (the rotated
// files, then the current one), and then follows it: the records
// appended since, also after the file was rotated away (a new one starts
// at the name) or truncated.
type Reader struct {
	name    string
	f       *os.File // nil until the log exists at name
	fi      os.FileInfo
	off     int64
	partial []byte   // an incomplete last line (a record being written)
	backlog []Record // what OpenReader read, for the first Next
}

// OpenReader reads the log in dir as [Read] does, under the writers'
// lock so that no rotation happens meanwhile, and keeps the current file
// open to follow it. With no file at all it fails with an error wrapping
// os.ErrNotExist.
func OpenReader(dir string) (*Reader, error) {
	if lock, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR, 0); err == nil {
		defer lock.Close()
		lockExclusive(lock)
	}
	r := &Reader{name: filepath.Join(dir, FileName)}
	files := Files(dir)
	if len(files) == 0 {
		return nil, fmt.Errorf("audit: %s: %w", r.name, os.ErrNotExist)
	}
	for _, name := range files {
		if name == r.name {
			break
		}
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("audit: %w", err)
		}
		r.backlog = append(r.backlog, decodeLines(data)...)
	}
	if err := r.open(); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if r.f != nil {
		lines, err := r.readOn()
		if err != nil {
			r.Close()
			return nil, err
		}
		r.backlog = append(r.backlog, decodeLines(lines)...)
	}
	return r, nil
}

func (r *Reader) open() error {
	f, err := os.Open(r.name)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("audit: %w", err)
	}
	if r.f != nil {
		r.f.Close()
	}
	r.f, r.fi, r.off, r.partial = f, fi, 0, nil
	return nil
}

// Close closes the log.
func (r *Reader) Close() error {
	if r.f == nil {
		return nil
	}
	return r.f.Close()
}

// Next returns the complete records appended since the last call (every
// record, the first time), oldest first. Lines that do not parse are
// skipped.
func (r *Reader) Next() ([]Record, error) {
	out := r.backlog
	r.backlog = nil
	if r.f == nil {
		if err := r.open(); errors.Is(err, os.ErrNotExist) {
			return out, nil
		} else if err != nil {
			return out, err
		}
	}
	var lines []byte
	fi, err := os.Stat(r.name)
	switch {
	case errors.Is(err, os.ErrNotExist):
		// Between a rotation's rename and the next record.
	case err != nil:
		return nil, fmt.Errorf("audit: %w", err)
	case !os.SameFile(fi, r.fi):
		// Rotated: what was appended to the old file before it moved
		// comes first.
		if lines, err = r.readOn(); err != nil {
			return nil, err
		}
		if err := r.open(); err != nil {
			return nil, err
		}
	case fi.Size() < r.off:
		r.off, r.partial = 0, nil
	}
	more, err := r.readOn()
	if err != nil {
		return nil, err
	}
	return append(out, decodeLines(append(lines, more...))...), nil
}

// readOn reads the open file from the offset and returns the complete
// lines read, keeping an incomplete last one for the next call.
func (r *Reader) readOn() ([]byte, error) {
	data, err := io.ReadAll(io.NewSectionReader(r.f, r.off, 1<<62))
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	r.off += int64(len(data))
	data = append(r.partial, data...)
	end := bytes.LastIndexByte(data, '\n') + 1
	r.partial = append([]byte(nil), data[end:]...)
	return data[:end], nil
}

func decodeLines(data []byte) []Record {
	var out []Record
	for _, line := range bytes.Split(data, []byte("\n")) {
		var rec Record
		if len(line) > 0 && json.Unmarshal(line, &rec) == nil {
			out = append(out, rec)
		}
	}
	return out
}

// Follow calls fn with the records appended from now on, looking every
// poll, until ctx ends (then it returns nil) or fn fails.
func (r *Reader) Follow(ctx context.Context, poll time.Duration, fn func([]Record) error) error {
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		recs, err := r.Next()
		if err != nil {
			return err
		}
		if len(recs) > 0 {
			if err := fn(recs); err != nil {
				return err
			}
		}
	}
}
