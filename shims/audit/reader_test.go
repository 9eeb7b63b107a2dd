// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package audit

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func commands(recs []Record) []string {
	var out []string
	for _, r := range recs {
		out = append(out, r.Command)
	}
	return out
}

func expect(t *testing.T, r *Reader, want ...string) {
	t.Helper()
	recs, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	got := commands(recs)
	if len(got) != len(want) {
		t.Fatalf("Next = %q, want %q", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("Next = %q, want %q", got, want)
		}
	}
}

// TestReaderFollows: the reader returns what was appended since its last
// call, holds back a record still being written, and starts over on a
// new file after a rotation (reading the rest of the old one first) or
// after a truncation.
func TestReaderFollows(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	name := filepath.Join(dir, FileName)
	Append(dir, Record{Command: "a"})
	r, err := OpenReader(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	expect(t, r, "a")
	expect(t, r)

	Append(dir, Record{Command: "b"})
	f, _ := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"command":"c"`)
	expect(t, r, "b")
	f.WriteString("}\n")
	f.Close()
	expect(t, r, "c")

	// Rotation: the log is renamed and a new one started; a record that
	// reached the old file after the last read is not lost.
	Append(dir, Record{Command: "d"})
	if err := os.Rename(name, name+".1"); err != nil {
		t.Fatal(err)
	}
	expect(t, r, "d") // no log at the name yet: the old file is read on
	Append(dir, Record{Command: "e"})
	Append(dir+"/../"+filepath.Base(dir), Record{Command: "g"})
	expect(t, r, "e", "g")
	// A record reaching the old file after a read, before the switch.
	Append(dir, Record{Command: "h"})
	os.Rename(name, name+".2")
	Append(dir, Record{Command: "i"})
	expect(t, r, "h", "i")

	// Truncation.
	os.Truncate(name, 0)
	expect(t, r)
	Append(dir, Record{Command: "f"})
	expect(t, r, "f")
}

// TestFollowStops: Follow hands over new records and returns when its
// context ends.
func TestFollowStops(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	Append(dir, Record{Command: "old"})
	r, err := OpenReader(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.Next()
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan string, 4)
	done := make(chan error, 1)
	go func() {
		done <- r.Follow(ctx, 10*time.Millisecond, func(recs []Record) error {
			for _, c := range commands(recs) {
				got <- c
			}
			return nil
		})
	}()
	Append(dir, Record{Command: "new"})
	select {
	case c := <-got:
		if c != "new" {
			t.Fatalf("followed %q", c)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Follow never handed over the new record")
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Follow did not return after its context ended")
	}
}

// TestReaderRotatedFirst: the reader starts with the rotated files,
// oldest first, as Read does.
func TestReaderRotatedFirst(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	Append(dir, Record{Command: "oldest"})
	name := filepath.Join(dir, FileName)
	os.Rename(name, name+".2")
	Append(dir, Record{Command: "older"})
	os.Rename(name, name+".1")
	Append(dir, Record{Command: "current"})
	r, err := OpenReader(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	expect(t, r, "oldest", "older", "current")
}
