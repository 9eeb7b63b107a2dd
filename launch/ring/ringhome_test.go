// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package ring

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
)

// TestRingHomeLeft: the closing line names what the agent made in the
// scratch home, not bwrap's mount points (nor the directories made on
// the way to one), nor lock/temp debris; the dir is removed.
func TestRingHomeLeft(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "home")
	for p, kind := range map[string]string{
		".gitconfig":               "file", // mount points
		".config/git":              "dir",
		".config/mine":             "file", // beside a mount point: the agent's
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
	home := "/home/u"
	var ms []sandbox.Mount
	for _, n := range []string{".gitconfig", ".config/git", ".claude.json"} {
		ms = append(ms, sandbox.Mount{Kind: sandbox.ROBind, Src: home + "/" + n, Dst: home + "/" + n})
	}
	ms = append(ms, sandbox.Mount{Kind: sandbox.Bind, Src: dir, Dst: home})
	got := scratchLeft(dir, home, ms, nil)
	want := []string{"/home/u/.config/mine", "/home/u/.link", "/home/u/.new/ (1 files)", "/home/u/.notes"}
	if !slices.Equal(got, want) {
		t.Errorf("scratchLeft = %q, want %q", got, want)
	}
	var b bytes.Buffer
	finishScratches(&b, []scratch{{dir, home}}, ms, home, nil, nil)
	if l := b.String(); strings.Count(l, "\n") != 1 || !strings.Contains(l, "~/.config/mine, ~/.link, ~/.new/ (1 files), ~/.notes outside what it may keep") {
		t.Errorf("closing line %q", l)
	}
	if _, err := os.Lstat(dir); err == nil {
		t.Error("scratch home not removed")
	}
	b.Reset()
	os.Mkdir(dir, 0o700)
	os.WriteFile(filepath.Join(dir, ".gitconfig"), nil, 0o600)
	finishScratches(&b, []scratch{{dir, home}}, ms, home, nil, nil)
	if b.Len() != 0 {
		t.Errorf("line for a scratch home with only mount points: %q", b.String())
	}
}

// TestRingQuietNames (#31): the names an adapter declares as expected
// scratch (agents.State.Scratch) and Go's telemetry are dropped without
// a line; anything else beside them keeps its line (the control).
func TestRingQuietNames(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "home")
	for _, p := range []string{".claude/.last-cleanup", ".codex/skills/.system/a/SKILL.md",
		".config/go/telemetry/local/x.count", ".codex/skills/mine/SKILL.md", ".claude/.last-cleanup2", ".config/go/env"} {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o700)
		os.WriteFile(full, []byte("x"), 0o600)
	}
	home := "/home/u"
	ms := []sandbox.Mount{{Kind: sandbox.Bind, Src: dir, Dst: home}}
	names := []string{home + "/.claude/.last-cleanup", home + "/.codex/skills/.system/", GoTelemetry(home)}
	got := scratchLeft(dir, home, ms, names)
	want := []string{"/home/u/.claude/ (1 files)", "/home/u/.codex/ (1 files)", "/home/u/.config/ (1 files)"}
	if !slices.Equal(got, want) {
		t.Errorf("scratchLeft = %q, want %q", got, want)
	}
	if got := scratchLeft(dir, home, ms, nil); len(got) != 3 || !slices.Contains(got, "/home/u/.claude/ (2 files)") {
		t.Errorf("without quiet names: %q", got)
	}
	var b bytes.Buffer
	os.RemoveAll(filepath.Join(dir, ".claude/.last-cleanup2"))
	os.RemoveAll(filepath.Join(dir, ".codex/skills/mine"))
	os.RemoveAll(filepath.Join(dir, ".config/go/env"))
	finishScratches(&b, []scratch{{dir, home}}, ms, home, nil, names)
	if b.Len() != 0 {
		t.Errorf("a line for quiet names only: %q", b.String())
	}
	if _, err := os.Lstat(dir); err == nil {
		t.Error("scratch not removed")
	}
}
