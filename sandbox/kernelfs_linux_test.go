// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/hostprobe"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
)

// TestKernelFilesReadOnlyGrants (escape class 52): where a sandbox shows
// /sys or the host's /proc (a grant of /sys, a write grant inside /sys
// or /proc, a granted link to /, a degraded workspace of /), nothing
// under them opens for writing, as root (no user namespace: the case
// bubblewrap itself does not cover). The probe (internal/hostprobe)
// enumerates every regular file, with the workspace written in the same
// run as the control, and the walk of what the grant shows must have
// covered files. The host control: the same walk of the host's
// /sys/kernel finds writable files. agents/e2etest's
// TestKernelFilesReadOnly and TestKernelGranted hold the
// same through run, a session and the ring, as root and as nobody.
func TestKernelFilesReadOnlyGrants(t *testing.T) {
	t.Parallel()
	b := requireBwrap(t)
	if os.Getuid() != 0 {
		t.Skip("as root: the unprivileged case is bubblewrap's own (and agents/e2etest's)")
	}
	if host := hostprobe.WalkWritable("/sys/kernel", 100000); len(host.Writable) == 0 {
		t.Fatalf("control: the walk finds nothing writable in the host's /sys/kernel as root: %+v", host)
	}
	home, ws := fakeHome(t)
	exe := probeCopy(t, home)
	link := filepath.Join(home, "root-link")
	if err := os.Symlink("/", link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		adjust func(s *sandbox.Spec)
		shows  []string // roots that must have files
	}{
		{"read grant of /sys", func(s *sandbox.Spec) { s.Read = append(s.Read, "/sys") }, []string{"/sys"}},
		{"write grant in /sys", func(s *sandbox.Spec) { s.Write = append(s.Write, "/sys/fs/cgroup", "/sys/kernel") }, []string{"/sys/kernel"}},
		{"write grant in /proc", func(s *sandbox.Spec) { s.Write = append(s.Write, "/proc/sys") }, []string{"/proc/sys"}},
		{"granted link to /", func(s *sandbox.Spec) { s.Write = append(s.Write, link) }, []string{link + "/sys", link + "/proc"}},
		{"workspace /", func(s *sandbox.Spec) { s.Workspace, s.Cwd = "/", ws }, []string{"/sys"}},
	} {
		s := specFor(t, ws, home, c.adjust)
		s.Read = append(s.Read, exe)
		roots := append([]string{"/proc", "/sys"}, c.shows...)
		r := probeIn(t, b, s, exe, hostprobe.Spec{Roots: roots, Workspace: ws, Sysctl: true, WriteSame: true, Out: filepath.Join(ws, "report.json")})
		if r.Workspace != "yes" {
			t.Errorf("%s: control: the workspace is not writable: %s", c.name, r.Workspace)
		}
		for root, w := range r.Walks {
			if len(w.Writable) > 0 || w.Truncated || w.Err != "" {
				t.Errorf("%s: %s: %d writable (%q...), truncated %v, err %q", c.name, root, len(w.Writable), w.Writable[:min(5, len(w.Writable))], w.Truncated, w.Err)
			}
		}
		for _, root := range c.shows {
			if w := r.Walks[root]; w.Files < 10 {
				t.Errorf("%s: control: %s was not shown (%d files)", c.name, root, w.Files)
			}
		}
		if !strings.HasPrefix(r.CorePattern, "no") || !strings.HasPrefix(r.Hostname, "no") {
			t.Errorf("%s: core_pattern %s, hostname %s: want both refused", c.name, r.CorePattern, r.Hostname)
		}
	}
}

// probeCopy copies the test binary into dir, which the sandbox can be
// granted (the build cache's copy may be below /tmp, hidden inside).
func probeCopy(t *testing.T, dir string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "hostprobe")
	if err := os.WriteFile(p, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// probeIn runs the probe with spec in the sandbox of s, through the
// confinement step, and returns its report.
func probeIn(t *testing.T, b sandbox.Backend, s sandbox.Spec, exe string, spec hostprobe.Spec) hostprobe.Report {
	t.Helper()
	specFile := spec.Out + ".spec"
	raw, _ := json.Marshal(spec)
	if err := os.WriteFile(specFile, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(spec.Out)
	p, err := sandbox.Prepare(b, s, confine.Argv(exe, []string{exe, hostprobe.Arg, specFile}))
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	defer p.Done()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.Path)
	cmd.Args = p.Args
	out, err := cmd.CombinedOutput()
	b2, rerr := os.ReadFile(spec.Out)
	if rerr != nil {
		t.Fatalf("no report (%v): %v\n%s", err, rerr, out)
	}
	var r hostprobe.Report
	if err := json.Unmarshal(b2, &r); err != nil {
		t.Fatal(err)
	}
	t.Logf("%v", summary(r))
	return r
}

// summary is one line per walk, for the log.
func summary(r hostprobe.Report) []string {
	var out []string
	for root, w := range r.Walks {
		out = append(out, root+": "+strconv.Itoa(w.Files)+" files, refused "+strconv.Itoa(len(w.Refused))+" kinds")
	}
	return out
}
