// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/internal/hostprobe"
)

// TestKernelFilesReadOnly (escape class 52): in every sandbox, as root
// and as an unprivileged user, no file under /proc or /sys opens for
// writing. The probe enumerates them (no list of bad files): every
// regular file of both trees, the sandbox's own /proc/PID too, opened
// O_WRONLY and closed unwritten. Beside it in the same run the
// workspace is writable, and the walk of /proc covered files (so the
// walk ran); the host control (as root) shows the same walk finding
// writable sysctls, so it can fail. The Landlock backend's routes
// (landlockRoutes: run, a shim, a session command, run in the simulated
// container; #28) hold the same, /sys there but refused as a whole.
func TestKernelFilesReadOnly(t *testing.T) {
	t.Parallel()
	users(t, func(t *testing.T, e *env) {
		if os.Getuid() == 0 && e.cred == nil {
			host := e.hostProbe("host", hostprobe.Spec{Roots: []string{"/proc/sys/kernel"}, Sysctl: true}, nil)
			if w := host.Walks["/proc/sys/kernel"]; !slices.Contains(w.Writable, "/proc/sys/kernel/core_pattern") {
				t.Errorf("control: the walk on the host, as root, did not find core_pattern writable: %+v", w)
			}
			if !strings.HasPrefix(host.CorePattern, "yes") {
				t.Errorf("control: core_pattern does not open for writing on the host as root: %s", host.CorePattern)
			}
		}
		spec := hostprobe.Spec{Roots: []string{"/proc", "/sys"}, Workspace: e.ws, Sysctl: true, WriteSame: true}
		for _, route := range append(sandboxRoutes, landlockRoutes...) {
			r := e.hostProbe(route, spec, nil)
			checkKernelReport(t, route, r)
		}
	})
}

// TestKernelGranted (escape class 52): the user's own
// policy file shows /sys and the host's /proc/sys to the commands and to
// the agent (a read grant of /sys, write grants inside /sys and /proc,
// a write grant of a link to /); still nothing under them opens for
// writing, in run, a session command and the ring, as root and as
// nobody. The control beside the workspace's: the walks of /sys and of
// the link's /sys covered files, so the grants were in effect.
func TestKernelGranted(t *testing.T) {
	t.Parallel()
	users(t, func(t *testing.T, e *env) {
		link := filepath.Join(filepath.Dir(e.ws), "root-link")
		if err := os.Symlink("/", link); err != nil {
			t.Fatal(err)
		}
		grants := fmt.Sprintf("read = [\"/sys\"]\nwrite = [\"/sys/fs/cgroup\", \"/proc/sys\", %q]\n", link)
		e.write("~/.config/lite-sandbox/config.toml", "[sandbox]\n"+grants+"\n[agent]\n"+grants)
		spec := hostprobe.Spec{Roots: []string{"/proc", "/sys", link + "/sys", link + "/proc"}, Workspace: e.ws, Sysctl: true, WriteSame: true}
		for _, route := range []string{"run", "session", "ring"} {
			r := e.hostProbe(route, spec, nil)
			checkKernelReport(t, route, r)
			for _, root := range []string{"/sys", link + "/sys"} {
				if w := r.Walks[root]; w.Files < 100 {
					t.Errorf("%s: control: the grant did not show %s (%d files)", route, root, w.Files)
				}
			}
		}
	})
}

// checkKernelReport fails on anything writable, a walk that did not
// run, or a refused workspace.
func checkKernelReport(t *testing.T, route string, r hostprobe.Report) {
	t.Helper()
	if r.Workspace != "yes" {
		t.Errorf("%s: control: the workspace is not writable in the same run: %s", route, r.Workspace)
	}
	for root, w := range r.Walks {
		if len(w.Writable) > 0 {
			t.Errorf("%s: %d files under %s open for writing: %q...", route, len(w.Writable), root, w.Writable[:min(5, len(w.Writable))])
		}
		// Under Landlock a root no grant shows is there but refused as
		// a whole (no mount namespace to leave it out).
		refusedWhole := strings.HasPrefix(route, "landlock-") && w.Files == 0 && w.Err == "open "+root+": permission denied"
		if w.Truncated || (w.Err != "" && !refusedWhole) {
			t.Errorf("%s: the walk of %s did not finish: %+v", route, root, w)
		}
		t.Logf("%s: %s: %d files, %d dirs, missing %v, refused %v", route, root, w.Files, w.Dirs, w.Missing, w.Refused)
	}
	if w := r.Walks["/proc"]; w.Files < 100 {
		t.Errorf("%s: control: the walk of /proc tried %d files only", route, w.Files)
	}
	// The attack's first step.
	if !strings.HasPrefix(r.CorePattern, "no") || !strings.HasPrefix(r.Hostname, "no") {
		t.Errorf("%s: kernel.core_pattern %s, kernel.hostname %s: want both refused", route, r.CorePattern, r.Hostname)
	}
}
