// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package ring

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/internal/esc"
)

// guardSnapshot is one guarded file (Claude's ~/.claude.json) as it was
// before the session: the agent writes it on the host during the
// session, and afterwards it goes back whole but for its data keys
// (escape class 54). It is also the journal's record (escape class 53).
type guardSnapshot struct {
	Path    string     `json:"path"`
	Data    [][]string `json:"data"`
	Existed bool       `json:"existed"`
	Before  []byte     `json:"before"`
	Mode    uint32     `json:"mode"`
	UID     int        `json:"uid"`
	GID     int        `json:"gid"`
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

func snapshotGuards(files []agents.GuardedFile) Guards {
	var out Guards
	for _, f := range files {
		g := guardSnapshot{Path: f.Path, Data: f.Data, UID: -1, GID: -1, Mode: 0o600}
		if b, err := readHost(f.Path); err == nil && b != nil {
			g.Existed, g.Before = true, b
			o := hostOwner(f.Path)
			g.Mode, g.UID, g.GID = uint32(o.mode), o.uid, o.gid
		}
		out = append(out, g)
	}
	return out
}

// Journal is g as the journal records it (launch writes it in the
// runtime root before the ring starts, and replays it after a launcher
// that died: docs/ring.md "The agent's state").
func (g Guards) Journal() ([]byte, error) { return json.Marshal(g) }

// ParseJournal reads a journal's guards.
func ParseJournal(b []byte) (Guards, error) {
	var g Guards
	if err := json.Unmarshal(b, &g); err != nil {
		return nil, fmt.Errorf("launch: restore journal: %w", err)
	}
	return g, nil
}

// Restore puts every guarded file back as it was before the session but
// for its data keys, once no process of the ring is alive, and returns
// one line per file it changed, for the user.
func (g Guards) Restore() []string {
	var lines []string
	for _, s := range g {
		if l := s.restore(); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// restore is Restore of one file: trust flags, MCP servers or anything
// else the ring wrote there would otherwise take effect at the next
// start of the agent, with or without lite-sandbox.
func (s guardSnapshot) restore() string {
	var before []byte
	if s.Existed {
		before = s.Before
	}
	now, rerr := readHost(s.Path)
	if fi, err := os.Lstat(s.Path); err == nil && !fi.Mode().IsRegular() {
		rerr = fmt.Errorf("not a regular file")
	}
	if rerr == nil && now == nil && !s.Existed {
		return ""
	}
	var out []byte
	var err error
	if rerr == nil && now != nil {
		out, err = agents.MergeJSON(before, now, s.Data)
	}
	if rerr != nil || now == nil || err != nil {
		return s.restoreRaw(now)
	}
	keys := changedKeys(now, out)
	if len(keys) == 0 && !s.ownerChanged() {
		return ""
	}
	if err := writeAtomic(s.Path, bytes.NewReader(out), s.owner()); err != nil {
		return fmt.Sprintf("could not restore %s: %v", esc.Text(s.Path), err)
	}
	what := "its mode"
	if len(keys) > 0 {
		what = strings.Join(keys, ", ")
	}
	return fmt.Sprintf("restored %s in %s as they were before the session (only the keys the agent changes as data come back from the ring)", what, esc.Text(s.Path))
}

// restoreRaw puts a guarded file that cannot be read as JSON back whole
// as it was before the session (or removes it when it did not exist).
func (s guardSnapshot) restoreRaw(now []byte) string {
	if s.Existed && bytes.Equal(now, s.Before) && !s.ownerChanged() {
		return ""
	}
	if !s.Existed {
		if err := os.RemoveAll(s.Path); err != nil {
			return fmt.Sprintf("could not remove %s, which the session created and which is not JSON: %v", esc.Text(s.Path), err)
		}
		return fmt.Sprintf("removed %s, which the session created and which is not JSON", esc.Text(s.Path))
	}
	if fi, err := os.Lstat(s.Path); err == nil && fi.IsDir() {
		os.RemoveAll(s.Path)
	}
	if err := writeAtomic(s.Path, bytes.NewReader(s.Before), s.owner()); err != nil {
		return fmt.Sprintf("could not restore %s, which is not JSON after the session: %v", esc.Text(s.Path), err)
	}
	return fmt.Sprintf("restored %s whole as it was before the session: it is not a JSON object after it", esc.Text(s.Path))
}

func (s guardSnapshot) owner() owner {
	return owner{mode: os.FileMode(s.Mode).Perm(), uid: s.UID, gid: s.GID}
}

// ownerChanged says whether the file's mode or owner is not what it was
// (the ring may chmod the file it writes: escape class 56).
func (s guardSnapshot) ownerChanged() bool {
	if !s.Existed {
		return false
	}
	fi, err := os.Lstat(s.Path)
	if err != nil {
		return false
	}
	uid, gid, ok := fileOwner(fi)
	return fi.Mode().Perm() != os.FileMode(s.Mode).Perm() || ok && s.UID >= 0 && (uid != s.UID || gid != s.GID)
}

// changedKeys names the key paths that differ between two JSON objects,
// down to the third level, for the closing line.
func changedKeys(a, b []byte) []string {
	da, _ := agents.ParseJSONObject(a)
	db, _ := agents.ParseJSONObject(b)
	var out []string
	var walk func(x, y map[string]any, at string, depth int)
	walk = func(x, y map[string]any, at string, depth int) {
		for k := range union(x, y) {
			xv, yv := x[k], y[k]
			xm, xok := xv.(map[string]any)
			ym, yok := yv.(map[string]any)
			switch {
			case xok && yok && depth < 3:
				walk(xm, ym, at+quoteKey(k)+".", depth+1)
			case !reflect.DeepEqual(xv, yv) || hasKey(x, k) != hasKey(y, k):
				out = append(out, at+quoteKey(k))
			}
		}
	}
	walk(da, db, "", 1)
	sort.Strings(out)
	if len(out) > maxListed {
		out = append(out[:maxListed], "and "+strconv.Itoa(len(out)-maxListed)+" more")
	}
	return out
}

// quoteKey shows a key chosen inside the ring (a project's path) safely.
func quoteKey(k string) string {
	if k == "" || strings.ContainsFunc(k, func(r rune) bool {
		return !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		return strconv.QuoteToGraphic(k)
	}
	return k
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
