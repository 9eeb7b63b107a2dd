// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package audit

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestDir(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_STATE_HOME": "/s", "HOME": "/h"}, "/s/lite-sandbox"},
		{map[string]string{"XDG_STATE_HOME": "relative", "HOME": "/h"}, "/h/.local/state/lite-sandbox"},
		{map[string]string{"HOME": "/h"}, "/h/.local/state/lite-sandbox"},
	} {
		got, err := Dir(func(k string) string { return c.env[k] })
		if err != nil || got != c.want {
			t.Errorf("Dir(%v) = %q, %v; want %q", c.env, got, err, c.want)
		}
	}
}

// TestAppendConcurrent: records of concurrent writers (shims) never
// interleave, and every one is read back.
func TestAppendConcurrent(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "state", "lite-sandbox")
	const n = 200
	long := strings.Repeat("x", 3000) // larger than a pipe buffer's atomic limit
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := Record{Time: time.Now(), Session: fmt.Sprintf("s-%d", i%3), Workspace: "/w",
				Command: fmt.Sprintf("echo %d %s <&>", i, long), Decision: "allow", Status: i % 5}
			if err := Append(dir, r); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	recs, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != n {
		t.Fatalf("read %d records, want %d", len(recs), n)
	}
	data, _ := os.ReadFile(filepath.Join(dir, FileName))
	if strings.Count(string(data), "\n") != n || strings.Contains(string(data), `\u003c`) {
		t.Errorf("log is not one readable line per record")
	}
	fi, _ := os.Stat(filepath.Join(dir, FileName))
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("log mode %v, want 0600", fi.Mode().Perm())
	}
	if got := LastSession(recs); !strings.HasPrefix(got, "s-") {
		t.Errorf("LastSession = %q", got)
	}
}

func TestAppendTruncatesHugeCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := Append(dir, Record{Command: strings.Repeat("y", 10*maxCommand)}); err != nil {
		t.Fatal(err)
	}
	recs, err := Read(dir)
	if err != nil || len(recs) != 1 || len(recs[0].Command) > maxCommand+8 {
		t.Fatalf("recs %d, err %v", len(recs), err)
	}
}
