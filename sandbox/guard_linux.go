// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
	"github.com/lite-sandbox/lite-sandbox/sandbox/guard"
)

// The guard of protected paths runs in the launcher (package guard);
// the sandbox decides what it guards (the Spec's protected paths, the
// layout's Guard mounts), where it moves things (quarantineDir) and
// where its records live (beside the workspace's lock file,
// placeholder_linux.go).

// startGuarding records the guarded paths of ms (for the sweep after a
// crash) and starts their guard, from before the sandbox starts.
func startGuarding(s Spec, ms []Mount, record string) (*guard.Guard, error) {
	guarded := guardPaths(ms)
	qdir := quarantineDir(s.Home, s.Workspace)
	if record != "" {
		guard.Record(guarded, qdir, guardRecord(record))
	}
	return guard.Start(guarded, nil, qdir)
}

// guardPaths are the Guard mounts of ms as the guard's paths (Src the
// root it is watched from, Dst the path).
func guardPaths(ms []Mount) []guard.Path {
	var out []guard.Path
	for _, m := range Guarded(ms) {
		out = append(out, guard.Path{Root: m.Src, Path: m.Dst})
	}
	return out
}

// quarantineDir is where the guard of workspace ws moves what it finds:
// beside the workspace's cache layers in the user's cache directory
// (usually the workspace's file system, so a rename), never inside the
// workspace.
func quarantineDir(home, ws string) string {
	layer := CacheLayerDir(home, ws)
	if layer == "" {
		return ""
	}
	q := filepath.Join(filepath.Dir(filepath.Dir(layer)), "quarantine", filepath.Base(layer))
	if hostpath.Within(q, ws) {
		return ""
	}
	return q
}

// keptPaths copies the protected paths of s that exist inside the
// workspace (outside it they stay Landlock's), and returns the guarded
// paths of those that do not (as [protectMounts] would give them Guard
// mounts).
func keptPaths(s Spec) ([]guard.Kept, []guard.Path, error) {
	var ks []guard.Kept
	var missing []guard.Path
	c := guard.NewCopier()
	ws := s.Workspace
	for _, pr := range s.Protect {
		// DetectHost has dropped what the user unprotected.
		if pr.Home || !hostpath.Below(pr.Path, ws) {
			continue
		}
		k, err := c.Take(ws, pr.Path)
		if err != nil {
			return nil, nil, err
		}
		if k != nil {
			ks = append(ks, *k)
			continue
		}
		rel := strings.TrimPrefix(pr.Path, strings.TrimSuffix(ws, "/")+"/")
		if strings.HasPrefix(rel, ".git/") {
			if fi, err := os.Lstat(filepath.Join(ws, ".git")); err != nil || !fi.IsDir() {
				continue // not a repository: what git init makes is the agent's (as protectMounts)
			}
		}
		missing = append(missing, guard.Path{Root: ws, Path: pr.Path})
	}
	return ks, missing, nil
}
