// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRingHomeLeft: the closing line names what the agent made in the
// scratch home, not bwrap's mount points for the real home's entries, nor
// lock/temp debris; the dir is removed.
func TestRingHomeLeft(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "home")
	for p, kind := range map[string]string{
		".bashrc":                  "file", // mount points of entries
		".config":                  "dir",
		".claude.json":             "file",
		".claude.json.lock":        "dir", // debris
		".claude.json.tmp.12.ab12": "file",
		"x.tmp":                    "file",
		".notes":                   "file", // the agent's
		".new/deep/file":           "file",
		".link":                    "link",
		".emptydir":                "dir",
	} {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
			t.Fatal(err)
		}
		switch kind {
		case "dir":
			os.MkdirAll(full, 0o700)
		case "file":
			os.WriteFile(full, []byte("x"), 0o600)
		case "link":
			os.Symlink(".notes", full)
		}
	}
	got := ringHomeLeft(dir, []string{".bashrc", ".config", ".claude.json"})
	want := []string{"~/.link", "~/.new/deep/file", "~/.notes"}
	if !slices.Equal(got, want) {
		t.Errorf("ringHomeLeft = %q, want %q", got, want)
	}
	var b bytes.Buffer
	finishRingHome(&b, dir, []string{".bashrc", ".config", ".claude.json"})
	if l := b.String(); strings.Count(l, "\n") != 1 || !strings.Contains(l, "~/.link, ~/.new/deep/file, ~/.notes in its scratch home") {
		t.Errorf("closing line %q", l)
	}
	if _, err := os.Lstat(dir); err == nil {
		t.Error("scratch home not removed")
	}
	b.Reset()
	os.Mkdir(dir, 0o700)
	os.WriteFile(filepath.Join(dir, ".bashrc"), nil, 0o600)
	finishRingHome(&b, dir, []string{".bashrc"})
	if b.Len() != 0 {
		t.Errorf("line for a scratch home with only mount points: %q", b.String())
	}
}
