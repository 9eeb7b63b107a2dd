// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestProbeCacheRealBwrap: the real bwrap probes once; the cached
// outcome is the same backend, and a new boot id is a miss.
func TestProbeCacheRealBwrap(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		if os.Getenv("LITE_SANDBOX_REQUIRE_BWRAP") == "1" {
			t.Fatal("bwrap required")
		}
		t.Skip("needs bubblewrap")
	}
	run := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", run)
	t.Setenv(envBwrap, "")
	want, err := Detect()
	if err != nil {
		t.Skipf("bwrap cannot create a sandbox here: %v", err)
	}
	got, err := Probe()
	if err != nil || got != want {
		t.Fatalf("Probe = %+v, %v; want %+v", got, err, want)
	}
	file := filepath.Join(run, "lite-sandbox-locks", probeCacheName)
	b, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(b), "ok\t"+want.Version) {
		t.Fatalf("cache %s: %q, %v", file, b, err)
	}
	key, _ := probeKey(want.Path)
	if cb, cerr, hit := readProbeCache(key, want.Path); !hit || cerr != nil || cb != want {
		t.Fatalf("cache hit = %v %+v %v", hit, cb, cerr)
	}
	// Another boot: the key differs, so the entry is not used.
	boot := filepath.Join(t.TempDir(), "boot_id")
	os.WriteFile(boot, []byte("another-boot\n"), 0o644)
	old := bootIDFile
	bootIDFile = boot
	defer func() { bootIDFile = old }()
	key2, _ := probeKey(want.Path)
	if _, _, hit := readProbeCache(key2, want.Path); hit {
		t.Fatal("a new boot hit the old cache entry")
	}
	// A cache file others can write is ignored (it could have been
	// planted to make mode auto run unsandboxed).
	os.Chmod(file, 0o666)
	if _, _, hit := readProbeCache(key, want.Path); hit {
		t.Fatal("a world-writable cache file was trusted")
	}
}

// BenchmarkProbeCacheHit is what every command pays for the probe.
func BenchmarkProbeCacheHit(b *testing.B) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		b.Skip("needs bubblewrap")
	}
	b.Setenv("XDG_RUNTIME_DIR", b.TempDir())
	Probe()
	b.ResetTimer()
	for range b.N {
		Probe()
	}
}
