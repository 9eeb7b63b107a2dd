// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package ring

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
)

// ringHome is the session's directory bound at $HOME in the agent ring
// (sandbox.RingSpec.HomeScratch). Nothing of the real home is in it but
// what the ring grants, bound onto it; agents create lock directories
// and temp files beside their state in $HOME (Claude Code's
// ~/.claude.json.lock and ~/.claude.json.tmp.PID.N before it renames
// onto ~/.claude.json), which land here. It is a host directory, not a
// tmpfs, so that the launcher can say what the agent left in it.
const ringHome = "home"

// scratch is one scratch directory of the ring: dir on the host, shown
// at real in the ring.
type scratch struct{ dir, real string }

// ringScratches lists the ring's scratch directories: the home's and
// each state layer's.
func ringScratches(r sandbox.RingSpec) []scratch {
	var out []scratch
	if r.HomeScratch != "" {
		out = append(out, scratch{r.HomeScratch, r.Command.Home})
	}
	for _, l := range r.Layers {
		out = append(out, scratch{l.Scratch, l.Dir})
	}
	return out
}

// makeScratch creates the scratch directory with the real directory's
// mode (some tools check that ~ is not group-writable).
func makeScratch(dir, real string) error {
	mode := fs.FileMode(0o700)
	if fi, err := os.Stat(real); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return fmt.Errorf("launch: ring scratch: %w", err)
	}
	if err := os.Mkdir(dir, mode); err != nil && !os.IsExist(err) {
		return fmt.Errorf("launch: ring scratch: %w", err)
	}
	return os.Chmod(dir, mode)
}

// debris matches the lock and temp names agents make beside a file they
// save and remove again (~/.claude.json.lock, ~/.claude.json.tmp.12.ab,
// x.tmp, x~): not worth a line when one is left behind by a kill.
var debris = regexp.MustCompile(`(\.lock|\.tmp|\.tmp\.[^/]*|\.swp|~)$`)

// quiet tells whether p (a path in the ring) is one of the names an
// agent or a tool is known to leave in the scratch at every run
// (agents.State.Scratch, GoTelemetry): dropped without a line (#31).
func quiet(p string, names []string) bool {
	for _, n := range names {
		if d, ok := strings.CutSuffix(n, "/"); ok && hostpath.Within(p, d) || p == n {
			return true
		}
	}
	return false
}

// GoTelemetry is where Go's toolchain keeps its telemetry counters
// below a home ($XDG_CONFIG_HOME/go/telemetry, ~/.config by default):
// every go command writes it, and in a scratch home it is expected
// noise.
func GoTelemetry(home string) string {
	return filepath.Join(home, ".config", "go", "telemetry") + "/"
}

// scratchLeft returns what the agent left in the scratch directory dir
// (shown at real in the ring), as paths in the ring: every file but the
// mount points bwrap made there for the ring's mounts (and the
// directories it made on the way to them), lock/temp debris and the
// quiet names (agents.State.Scratch).
func scratchLeft(dir, real string, mounts []sandbox.Mount, quietNames []string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return nil
		}
		inRing := filepath.Join(real, rel)
		point, above := false, false
		for _, m := range mounts {
			if m.Dst == inRing && m.Dst != real {
				point = true
			} else if hostpath.Below(m.Dst, inRing) {
				above = true
			}
		}
		switch {
		case point || debris.MatchString(d.Name()) || quiet(inRing, quietNames):
			if d.IsDir() {
				return filepath.SkipDir
			}
		case !d.IsDir():
			out = append(out, inRing)
		case above:
			// A directory bwrap made to reach a mount point: look inside.
		default:
			// A new directory is one entry, with what it holds.
			if n := countFiles(p, inRing, quietNames); n > 0 {
				out = append(out, fmt.Sprintf("%s/ (%d files)", inRing, n))
			}
			return filepath.SkipDir
		}
		return nil
	})
	return out
}

// countFiles counts what is not a directory below dir (shown at real in
// the ring) and not quiet.
func countFiles(dir, real string, quietNames []string) int {
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if rel, err := filepath.Rel(dir, p); err == nil && !quiet(filepath.Join(real, rel), quietNames) {
			n++
		}
		return nil
	})
	return n
}

// finishScratches says in one line what the agent left in the scratch
// directories, which vanish now, but the kept data files, and removes
// them (RemoveAll never follows the mount points' symlinks).
func finishScratches(w io.Writer, scratches []scratch, mounts []sandbox.Mount, home string, keeps map[string]kept, quietNames []string) {
	var left []string
	for _, sc := range scratches {
		k, hasKept := keeps[sc.dir]
		for _, p := range scratchLeft(sc.dir, sc.real, mounts, quietNames) {
			if hasKept && filepath.Dir(p) == sc.real && k.matches(filepath.Base(p)) {
				continue // kept (persistKept), or said why not
			}
			if home != "" && home != "/" && hostpath.Below(p, home) {
				p = "~" + p[len(home):]
			}
			left = append(left, p)
		}
		defer os.RemoveAll(sc.dir)
	}
	if len(left) == 0 {
		return
	}
	shown, extra := left, ""
	if len(shown) > maxListed {
		shown = shown[:maxListed]
		extra = " and " + strconv.Itoa(len(left)-maxListed) + " more"
	}
	esc.Fprintf(w, "lite-sandbox: the agent created %s%s outside what it may keep; gone now (the ring keeps only the workspace and the agent's data; persist a path with agent.write)\n",
		strings.Join(shown, ", "), extra)
}
