// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package guard

import (
	"bytes"
	"encoding/gob"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
)

// The records beside a workspace's lock file (the sandbox package names
// them and holds the lock): the guarded paths, "root TAB path TAB
// quarantine" a line, and the copies the first sandbox of the workspace
// took (gob). The last sandbox of the workspace, or the first after a
// launcher was killed, sweeps and restores from them, then removes them.

// Record appends the guarded paths to the record at rec, for the sweep
// after a crash.
func Record(paths []Path, qdir, rec string) {
	var b strings.Builder
	for _, p := range paths {
		if strings.ContainsAny(p.Root+p.Path+qdir, "\t\n") {
			continue
		}
		b.WriteString(p.Root + "\t" + p.Path + "\t" + qdir + "\n")
	}
	if b.Len() == 0 {
		return
	}
	f, err := os.OpenFile(rec, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return
	}
	f.WriteString(b.String())
	f.Close()
}

// Sweep quarantines whatever exists at a path recorded at rec, then
// removes the record. Only the last sandbox of a workspace, or the first
// after a crash, calls it.
func Sweep(rec string) []Quarantined {
	data, err := os.ReadFile(rec)
	if err != nil {
		return nil
	}
	var out []Quarantined
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 || !filepath.IsAbs(f[0]) || !hostpath.Below(f[1], f[0]) || seen[f[1]] {
			continue
		}
		seen[f[1]] = true
		g := &Guard{qdir: f[2], watched: map[[2]uint64]bool{}, in: -1}
		g.check(f[0], f[1])
		out = append(out, g.moved...)
	}
	os.Remove(rec)
	return out
}

// keptFile is the copies the first sandbox of a workspace took, left
// beside the workspace's lock file (the user's private directory).
type keptFile struct {
	Qdir string
	Kept []Kept
}

// Share returns the copies this sandbox holds its paths to, with rec
// the copies' record. The first sandbox of the workspace records its
// own; a later one takes the first's for the paths both have: two
// guards with different copies would undo each other's restores, and a
// copy taken in another sandbox's window would be the changed version.
func Share(first bool, rec string, ks []Kept, qdir string) []Kept {
	if first {
		if len(ks) > 0 {
			writeKept(rec, keptFile{Qdir: qdir, Kept: ks})
		}
		return ks
	}
	kf, err := readKept(rec)
	if err != nil {
		return ks
	}
	for i := range ks {
		for _, o := range kf.Kept {
			if o.Path == ks[i].Path && o.Root == ks[i].Root {
				ks[i].Copy = o.Copy
			}
		}
	}
	return ks
}

// Restore puts back what differs from the copies recorded at rec and
// removes the record: the last sandbox of a workspace calls it, and the
// first after a launcher was killed.
func Restore(rec string) []Quarantined {
	kf, err := readKept(rec)
	if err != nil {
		return nil
	}
	var out []Quarantined
	for _, k := range kf.Kept {
		if !filepath.IsAbs(k.Root) || !hostpath.Below(k.Path, k.Root) || k.Copy == nil {
			continue
		}
		if q, ok := keep(k, kf.Qdir); ok {
			out = append(out, q)
		}
	}
	os.Remove(rec)
	return out
}

func writeKept(rec string, kf keptFile) {
	var b bytes.Buffer
	if gob.NewEncoder(&b).Encode(kf) != nil {
		return
	}
	tmp := rec + ".tmp"
	if os.WriteFile(tmp, b.Bytes(), 0o600) == nil {
		os.Rename(tmp, rec)
	}
}

func readKept(rec string) (keptFile, error) {
	var kf keptFile
	f, err := os.Open(rec)
	if err != nil {
		return kf, err
	}
	defer f.Close()
	err = gob.NewDecoder(io.LimitReader(f, 2*keptMax)).Decode(&kf)
	return kf, err
}
