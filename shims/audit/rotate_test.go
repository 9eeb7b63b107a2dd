// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package audit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The helper process: one "shim" appending records, as every command's
// shim does.
func TestMain(m *testing.M) {
	if dir := os.Getenv("AUDIT_TEST_WRITER_DIR"); dir != "" {
		id, _ := strconv.Atoi(os.Getenv("AUDIT_TEST_WRITER_ID"))
		n, _ := strconv.Atoi(os.Getenv("AUDIT_TEST_WRITER_N"))
		maxBytes, keepRotated = 16<<10, 1000
		pad := strings.Repeat("y", 100+id*7)
		for i := range n {
			r := Record{Time: time.Now(), Workspace: "/w", Command: fmt.Sprintf("writer=%d seq=%d %s", id, i, pad),
				Decision: "allow", Status: 0}
			if err := Append(dir, r); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestRotateUnderLoad: 50 processes append at once to a log that
// rotates every 16 KiB; every record is read back across the rotated
// files, whole (one JSON line each), once, and in each writer's order;
// no file grows much past the limit.
func TestRotateUnderLoad(t *testing.T) {
	// Not parallel: it sets keepRotated, which every Append reads.
	const writers, each = 50, 40
	dir := filepath.Join(t.TempDir(), "state")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for id := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(exe, "-test.run=^$")
			cmd.Env = append(os.Environ(), "AUDIT_TEST_WRITER_DIR="+dir,
				"AUDIT_TEST_WRITER_ID="+strconv.Itoa(id), "AUDIT_TEST_WRITER_N="+strconv.Itoa(each))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("writer %d: %v: %s", id, err, out)
			}
		}()
	}
	wg.Wait()
	old := keepRotated
	keepRotated = 1000
	defer func() { keepRotated = old }()
	files := Files(dir)
	if len(files) < 10 {
		t.Fatalf("only %d files: the log did not rotate", len(files))
	}
	lines := 0
	for _, f := range files {
		fi, _ := os.Stat(f)
		if fi.Size() > 16<<10+1024 {
			t.Errorf("%s is %d bytes, past the limit by more than a record", f, fi.Size())
		}
		fh, _ := os.Open(f)
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			lines++
			var r Record
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Errorf("%s: a torn or interleaved line: %q", f, sc.Text())
			}
		}
		fh.Close()
	}
	recs, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != writers*each || lines != writers*each {
		t.Fatalf("read %d records (%d lines), want %d", len(recs), lines, writers*each)
	}
	next := map[int]int{}
	for _, r := range recs {
		var id, seq int
		if _, err := fmt.Sscanf(r.Command, "writer=%d seq=%d", &id, &seq); err != nil {
			t.Fatalf("record %q: %v", r.Command, err)
		}
		if seq != next[id] {
			t.Fatalf("writer %d: record %d after %d: lost, duplicated or out of order", id, seq, next[id]-1)
		}
		next[id]++
	}
}

// TestRotateKeepsAFew: only keepRotated rotated files stay, and Read reads
// them oldest first, then the current file.
func TestRotateKeepsAFew(t *testing.T) {
	// Not parallel: it sets maxBytes and keepRotated, which every Append
	// of the package's parallel tests reads (a concurrent test lost its
	// records to the tiny rotation on a busy machine, #29).
	dir := t.TempDir()
	oldMax, oldKeep := maxBytes, keepRotated
	maxBytes, keepRotated = 200, 2
	defer func() { maxBytes, keepRotated = oldMax, oldKeep }()
	for i := range 20 {
		if err := Append(dir, Record{Workspace: "/w", Command: fmt.Sprintf("c%02d %s", i, strings.Repeat("z", 150))}); err != nil {
			t.Fatal(err)
		}
	}
	if got := Files(dir); len(got) > 3 {
		t.Fatalf("files %v, want at most the current one and 2 rotated", got)
	}
	if _, err := os.Stat(filepath.Join(dir, FileName+".3")); err == nil {
		t.Fatal("a third rotated file was kept")
	}
	recs, err := Read(dir)
	if err != nil || len(recs) == 0 {
		t.Fatal(recs, err)
	}
	if !strings.HasPrefix(recs[len(recs)-1].Command, "c19") {
		t.Errorf("newest record last: got %q", recs[len(recs)-1].Command)
	}
	for i := 1; i < len(recs); i++ {
		if recs[i].Command < recs[i-1].Command {
			t.Fatalf("records out of order: %q before %q", recs[i-1].Command, recs[i].Command)
		}
	}
}

// Read returns every record of the log in dir, across the rotated
// files, oldest first. Lines that do not parse are skipped. The reader
// takes the writers' lock so that no rotation happens between the files
// it reads; with no file at all it fails with an error wrapping
// os.ErrNotExist.
func Read(dir string) ([]Record, error) {
	if lock, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR, 0); err == nil {
		defer lock.Close()
		lockExclusive(lock)
	}
	files := Files(dir)
	if len(files) == 0 {
		return nil, fmt.Errorf("audit: %s: %w", filepath.Join(dir, FileName), os.ErrNotExist)
	}
	readers := make([]io.Reader, 0, len(files))
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("audit: %w", err)
		}
		defer f.Close()
		readers = append(readers, f)
	}
	return decode(io.MultiReader(readers...))
}

// decode reads records, one JSON line each, skipping lines that do not
// parse.
func decode(r io.Reader) ([]Record, error) {
	var out []Record
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var rec Record
		if json.Unmarshal(sc.Bytes(), &rec) == nil {
			out = append(out, rec)
		}
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("audit: %w", err)
	}
	return out, nil
}
