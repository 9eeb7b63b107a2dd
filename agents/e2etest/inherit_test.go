// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/internal/hostprobe"
)

// TestInheritedDescriptors (escape class 57): lite-sandbox started with
// a directory descriptor open on the host (descriptor 7, outside the
// workspace, not close-on-exec, as a careless parent leaves it) passes
// it to none of its sandboxes, as root and as an unprivileged user: the
// probe fstats descriptors 3 to 1023 and tries openat(fd, "..") on
// every directory; under both backends (landlockRoutes, #28). The
// control: the same probe started directly with
// the same descriptors finds descriptor 7 and walks up from it.
func TestInheritedDescriptors(t *testing.T) {
	t.Parallel()
	users(t, func(t *testing.T, e *env) {
		outside := filepath.Dir(e.ws) // the home and the runtime directory are there
		dir, err := os.Open(outside)
		if err != nil {
			t.Fatal(err)
		}
		defer dir.Close()
		var st syscall.Stat_t
		if err := syscall.Fstat(int(dir.Fd()), &st); err != nil {
			t.Fatal(err)
		}
		extra := []*os.File{nil, nil, nil, nil, dir} // descriptor 7
		spec := hostprobe.Spec{FDs: true, Workspace: e.ws}
		host := e.hostProbe("host", spec, extra)
		if !leaks(host.FDs, uint64(st.Dev), st.Ino) {
			t.Fatalf("control: the probe started directly does not see descriptor 7 on %s: %+v", outside, host.FDs)
		}
		for _, route := range append(sandboxRoutes, landlockRoutes...) {
			r := e.hostProbe(route, spec, extra)
			if r.Workspace != "yes" {
				t.Errorf("%s: control: the probe did not write the workspace: %s", route, r.Workspace)
			}
			for _, d := range r.FDs {
				if d.FD == 7 || d.Dir || (d.Dev == uint64(st.Dev) && d.Ino == st.Ino) {
					t.Errorf("%s: the probe was given descriptor %d (%s, directory %v, parent %s)", route, d.FD, d.Target, d.Dir, d.Parent)
				}
			}
			t.Logf("%s: descriptors from 3: %+v", route, r.FDs)
		}
	})
}

// leaks says whether fds hold the directory dev:ino as descriptor 7, and
// openat(7, "..") listed the directory above it.
func leaks(fds []hostprobe.Descriptor, dev, ino uint64) bool {
	for _, d := range fds {
		if d.FD == 7 && d.Dir && d.Dev == dev && d.Ino == ino && strings.HasPrefix(d.Parent, "yes") {
			return true
		}
	}
	return false
}
