// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/internal/shellname"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims/forward"
)

// TestRingShellsTakeC (#29): every shell the agent ring binds to the
// shim (sandbox.ShellBinaries over a directory holding each name) is
// one the shim acts as and whose -c it takes, run by a real shell. The
// ring used to bind yash, posh and lksh, which the shim refused
// ("unknown flag -c"). The control: a name that is not a shell is not
// bound. cmd/lite-sandbox's ring_shells.txtar runs each through a real
// session.
func TestRingShellsTakeC(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, n := range append(append([]string{}, shellname.Names...), "python3") {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bound := sandbox.ShellBinaries(sandbox.OSFS{}, []string{dir}, nil)
	if len(bound) != len(shellname.Names) {
		t.Fatalf("the ring binds %v, want each of %v and not python3", bound, shellname.Names)
	}
	for _, p := range bound {
		if !forward.IsShellName(p) {
			t.Errorf("%s: bound by the ring, but the shim binary does not act as it", p)
		}
		inv, err := ParseArgsFor(p, []string{"-c", "echo x", "_", "a"})
		if err != nil || inv.Form != FormCommand || inv.Command != "echo x" {
			t.Errorf("%s -c: %+v, %v", p, inv, err)
		}
		if sh, _ := innerShell(p); sh == "" || !filepath.IsAbs(sh) {
			t.Errorf("%s: no real shell (%q) to run the command", p, sh)
		}
	}
}
