// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// ringHome is the session's directory bound at $HOME in the agent ring,
// under the real home's entries (sandbox.RingSpec.HomeScratch): agents
// create lock directories and temp files beside their state in $HOME
// (Claude Code's ~/.claude.json.lock and ~/.claude.json.tmp.PID.N before
// it renames onto ~/.claude.json), which a read-only home refuses, and
// Claude then did not save ~/.claude.json at all. It is a host directory,
// not a tmpfs, so that the launcher can say what the agent left in it.
const ringHome = "home"

// maxHomeEntries bounds the scratch layer: bwrap rereads its mount table
// for every bind, so the cost grows faster than the number of entries
// (measured with bwrap 0.8.0: 100 binds about 25 ms, 200 about 110 ms,
// 500 about 450 ms, once per agent start).
const maxHomeEntries = 256

// homeEntries lists the names in the real home, for the scratch layer.
// An unreadable home, or one with more than maxHomeEntries entries, gets
// no scratch layer (ok false): the ring shows the home read-only as it
// is, and n says how many entries it has.
func homeEntries(home string) (names []string, n int, ok bool) {
	if home == "" || home == "/" {
		return nil, 0, false
	}
	ents, err := os.ReadDir(home)
	if err != nil || len(ents) > maxHomeEntries {
		return nil, len(ents), false
	}
	names = make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name()
	}
	return names, len(ents), true
}

// makeRingHome creates the scratch directory with the real home's mode
// (some tools check that ~ is not group-writable).
func makeRingHome(dir, home string) error {
	mode := fs.FileMode(0o700)
	if fi, err := os.Stat(home); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.Mkdir(dir, mode); err != nil && !os.IsExist(err) {
		return fmt.Errorf("launch: ring home: %w", err)
	}
	return os.Chmod(dir, mode)
}

// debris matches the lock and temp names agents make beside a file they
// save and remove again (~/.claude.json.lock, ~/.claude.json.tmp.12.ab,
// x.tmp, x~): not worth a line when one is left behind by a kill.
var debris = regexp.MustCompile(`(\.lock|\.tmp|\.tmp\.[^/]*|\.swp|~)$`)

// ringHomeLeft returns what the agent left in the scratch home as ~/...
// paths: everything but the mount points bwrap made there for the real
// home's entries (the names listed before the ring) and lock/temp
// debris.
func ringHomeLeft(dir string, entries []string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return nil
		}
		top, _, _ := strings.Cut(rel, string(filepath.Separator))
		if slices.Contains(entries, top) || debris.MatchString(d.Name()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			out = append(out, "~/"+rel)
		}
		return nil
	})
	return out
}

// finishRingHome says in one line what the agent left in the scratch
// home, which vanishes now, and removes it (RemoveAll never follows the
// symlinks bwrap recreated there).
func finishRingHome(w io.Writer, dir string, entries []string) {
	defer os.RemoveAll(dir)
	left := ringHomeLeft(dir, entries)
	if len(left) == 0 {
		return
	}
	shown, extra := left, ""
	if len(shown) > maxListed {
		shown = shown[:maxListed]
		extra = " and " + strconv.Itoa(len(left)-maxListed) + " more"
	}
	fmt.Fprintf(w, "lite-sandbox: the agent created %s%s in its scratch home; gone now (the real home is read-only in the ring; persist a path with agent.write)\n",
		strings.Join(shown, ", "), extra)
}
