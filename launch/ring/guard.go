// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package ring

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// guardSnapshot holds the code-carrying keys of one agent-written JSON
// file (Claude's ~/.claude.json: mcpServers, also per project) as they
// were before the session.
type guardSnapshot struct {
	file   agents.GuardedFile
	before map[string]any // dotted key path -> value; absent keys are absent
	raw    []byte         // the file as it was; nil when it did not exist
}

// snapshotGuards reads the guarded files before the agent starts. A file
// that is not JSON has no code keys as far as we can tell; its bytes are
// kept, so that whatever the session leaves there can be undone.
func snapshotGuards(files []agents.GuardedFile) []guardSnapshot {
	var out []guardSnapshot
	for _, f := range files {
		raw, _ := os.ReadFile(f.Path)
		g := guardSnapshot{file: f, raw: raw, before: map[string]any{}}
		if doc, err := parseJSON(raw); err == nil {
			g.before = codeKeys(doc, f.Keys)
		}
		out = append(out, g)
	}
	return out
}

// Guards are the guarded files of one session, as they were before it.
type Guards []guardSnapshot

// SnapshotGuards reads the agent's guarded files before it starts.
func SnapshotGuards(in Input) Guards {
	if in.State == nil {
		return nil
	}
	return snapshotGuards(in.State.Guard)
}

// Restore is [restoreGuards] of g, once no process of the ring is alive.
func (g Guards) Restore() []string { return restoreGuards(g) }

// restoreGuards puts the code-carrying keys back as they were before the
// session, and returns one line per file it changed, for the user: code
// the agent (or a model through it) added there would otherwise run at
// the next start, with or without lite-sandbox.
func restoreGuards(snaps []guardSnapshot) []string {
	var lines []string
	for _, g := range snaps {
		doc, err := readJSON(g.file.Path)
		if err != nil {
			// A file the restore cannot read may still be one the agent
			// reads (Claude accepts a byte-order mark, other parsers
			// more): the bytes from before the session go back whole.
			if l, ok := restoreRaw(g); ok {
				lines = append(lines, l)
			}
			continue
		}
		after := codeKeys(doc, g.file.Keys)
		var changed []string
		for k := range union(g.before, after) {
			if !reflect.DeepEqual(g.before[k], after[k]) {
				changed = append(changed, k)
			}
		}
		if len(changed) == 0 {
			continue
		}
		sort.Strings(changed)
		shown := make([]string, len(changed))
		for i, k := range changed {
			setPath(doc, splitKey(k), g.before[k], hasKey(g.before, k))
			shown[i] = strings.ReplaceAll(k, keySep, ".")
		}
		if err := writeJSON(g.file.Path, doc); err != nil {
			lines = append(lines, fmt.Sprintf("could not restore %s in %s: %v", strings.Join(shown, ", "), g.file.Path, err))
			continue
		}
		lines = append(lines, fmt.Sprintf("restored %s in %s as they were before the session (keys that make the agent run code are not changed from inside the ring)", strings.Join(shown, ", "), g.file.Path))
	}
	return lines
}

// restoreRaw puts a guarded file that can no longer be parsed back as
// it was before the session (or removes it when it did not exist).
func restoreRaw(g guardSnapshot) (string, bool) {
	now, err := os.ReadFile(g.file.Path)
	if err != nil && g.raw == nil || bytes.Equal(now, g.raw) {
		return "", false
	}
	if g.raw == nil {
		if err := os.Remove(g.file.Path); err != nil {
			return fmt.Sprintf("could not remove %s, which the session created and which is not JSON: %v", g.file.Path, err), true
		}
		return fmt.Sprintf("removed %s, which the session created and which is not JSON", g.file.Path), true
	}
	if err := writeRaw(g.file.Path, g.raw); err != nil {
		return fmt.Sprintf("could not restore %s, which is not JSON after the session: %v", g.file.Path, err), true
	}
	return fmt.Sprintf("restored %s whole as it was before the session: it is not JSON after it, so its code keys could not be checked", g.file.Path), true
}

// keySep joins key paths; a NUL cannot occur in a JSON key we care for.
const keySep = "\x00"

func splitKey(k string) []string { return strings.Split(k, keySep) }

// codeKeys collects the values at the key patterns ("*" matches every
// key at its level).
func codeKeys(doc map[string]any, patterns [][]string) map[string]any {
	out := map[string]any{}
	var walk func(v any, pat, at []string)
	walk = func(v any, pat, at []string) {
		if len(pat) == 0 {
			out[strings.Join(at, keySep)] = v
			return
		}
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		if pat[0] == "*" {
			for k, c := range m {
				walk(c, pat[1:], append(append([]string{}, at...), k))
			}
			return
		}
		if c, ok := m[pat[0]]; ok {
			walk(c, pat[1:], append(append([]string{}, at...), pat[0]))
		}
	}
	for _, p := range patterns {
		walk(doc, p, nil)
	}
	return out
}

// setPath sets (present) or deletes (!present) the value at path, making
// intermediate objects as needed.
func setPath(doc map[string]any, path []string, v any, present bool) {
	m := doc
	for _, k := range path[:len(path)-1] {
		c, ok := m[k].(map[string]any)
		if !ok {
			if !present {
				return
			}
			c = map[string]any{}
			m[k] = c
		}
		m = c
	}
	last := path[len(path)-1]
	if present {
		m[last] = v
	} else {
		delete(m, last)
	}
}

func hasKey(m map[string]any, k string) bool { _, ok := m[k]; return ok }

func union(a, b map[string]any) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func readJSON(p string) (map[string]any, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	return parseJSON(b)
}

// parseJSON reads a JSON object, after a UTF-8 byte-order mark if there
// is one (Claude reads such a file).
func parseJSON(b []byte) (map[string]any, error) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	if doc == nil {
		doc = map[string]any{}
	}
	return doc, nil
}

// writeJSON replaces p atomically, keeping its mode.
func writeJSON(p string, doc map[string]any) error {
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return writeRaw(p, append(b, '\n'))
}

// writeRaw replaces p atomically with b, keeping its mode.
func writeRaw(p string, b []byte) error {
	mode := os.FileMode(0o600)
	if fi, err := os.Stat(p); err == nil {
		mode = fi.Mode().Perm()
	}
	return writeAtomic(p, b, mode)
}

// writeAtomic replaces p with b in mode through a temporary file beside
// it and a rename: a reader sees the old file or the new one, never
// half of it.
func writeAtomic(p string, b []byte, mode os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".lite-sandbox-")
	if err != nil {
		return err
	}
	_, werr := f.Write(b)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(f.Name(), mode)
	}
	if werr == nil {
		werr = os.Rename(f.Name(), p)
	}
	if werr != nil {
		os.Remove(f.Name())
	}
	return werr
}
