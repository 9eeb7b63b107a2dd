// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHostGitsExecPath: the gits the ring binds to the shim include git's
// exec path as this host's git reports it (/usr/lib/git-core/git on
// Debian) and the dashed programs there that are git.
func TestHostGitsExecPath(t *testing.T) {
	t.Parallel()
	host, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git on this host")
	}
	out, err := exec.Command(host, "--exec-path").Output()
	if err != nil {
		t.Fatal(err)
	}
	core := strings.TrimSpace(string(out))
	gits := HostGits(nil)
	real, err := filepath.EvalSymlinks(filepath.Join(core, "git"))
	if err != nil {
		t.Skipf("no git in the exec path %s: %v", core, err)
	}
	if !slices.Contains(gits, real) {
		t.Errorf("HostGits() = %q: no %s (git --exec-path)", gits, real)
	}
	if up, err := filepath.EvalSymlinks(filepath.Join(core, "git-upload-pack")); err == nil && !slices.Contains(gits, up) {
		t.Errorf("HostGits() = %q: no %s", gits, up)
	}
	// Control: a program of the exec path that is not git is left.
	if sh, err := filepath.EvalSymlinks(filepath.Join(core, "git-shell")); err == nil && slices.Contains(gits, sh) {
		t.Errorf("HostGits() = %q holds git-shell, another program", gits)
	}
}
