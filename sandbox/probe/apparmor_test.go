// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package probe

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden file")

// TestAppArmorProfile pins the profile doctor offers (golden), for an
// ordinary path and one AppArmor would read as a glob.
func TestAppArmorProfile(t *testing.T) {
	checkGolden(t, "apparmor-bwrap.golden", []byte(AppArmorProfile("/usr/bin/bwrap")))
	if got := AppArmorProfile("/opt/my tools/bwrap*"); !strings.Contains(got, `profile lite-sandbox-bwrap "/opt/my tools/bwrap*" flags=(unconfined)`) {
		t.Errorf("odd path not quoted:\n%s", got)
	}
}

// TestAppArmorFix: the commands a person runs, Ubuntu's own stricter
// profile where the host ships it, and nothing run by lite-sandbox.
func TestAppArmorFix(t *testing.T) {
	for _, tc := range []struct {
		ubuntu     bool
		want, miss string
	}{
		{false, "sudo tee /etc/apparmor.d/lite-sandbox-bwrap >/dev/null <<'EOF'", "bwrap-userns-restrict"},
		{true, "sudo install -m 0644 /usr/share/apparmor/extra-profiles/bwrap-userns-restrict /etc/apparmor.d/bwrap-userns-restrict", "sudo tee"},
	} {
		got := strings.Join(AppArmorFix("/usr/bin/bwrap", tc.ubuntu), "\n")
		if !strings.Contains(got, tc.want) || strings.Contains(got, tc.miss) {
			t.Errorf("ubuntu=%v:\n%s", tc.ubuntu, got)
		}
		if !strings.Contains(got, "sudo apparmor_parser -r /etc/apparmor.d/") || !strings.HasPrefix(got, "apparmor: ") {
			t.Errorf("ubuntu=%v: no parser step or heading:\n%s", tc.ubuntu, got)
		}
	}
}

// checkGolden compares got with testdata/name (go test -update rewrites
// it; then read the diff).
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run go test -update to accept):\n--- got\n%s\n--- want\n%s", file, got, want)
	}
}
