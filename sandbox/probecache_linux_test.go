// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/internal/bwraptest"
)

// TestProbeCacheRealBwrap: the real bwrap probes once; the cached
// outcome is the same backend, and a new boot id is a miss.
func TestProbeCacheRealBwrap(t *testing.T) {
	_, err := exec.LookPath("bwrap")
	bwraptest.Require(t, err)
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
	if cb, hit := readProbeCache(key, want.Path); !hit || cb != want {
		t.Fatalf("cache hit = %v %+v", hit, cb)
	}
	// Another boot: the key differs, so the entry is not used.
	boot := filepath.Join(t.TempDir(), "boot_id")
	os.WriteFile(boot, []byte("another-boot\n"), 0o644)
	old := bootIDFile
	bootIDFile = boot
	defer func() { bootIDFile = old }()
	key2, _ := probeKey(want.Path)
	if _, hit := readProbeCache(key2, want.Path); hit {
		t.Fatal("a new boot hit the old cache entry")
	}
	// A cache file others can write is ignored (it could have been
	// planted to make mode auto run unsandboxed).
	os.Chmod(file, 0o666)
	if _, hit := readProbeCache(key, want.Path); hit {
		t.Fatal("a world-writable cache file was trusted")
	}
	// A failure is never read back, even one of ours with the right key
	// (an older version wrote them): the caller probes afresh.
	os.Chmod(file, 0o600)
	os.WriteFile(file, []byte(key+"\nfail\tblocked\n"), 0o600)
	if _, hit := readProbeCache(key, want.Path); hit {
		t.Fatal("a cached failure was believed")
	}
}

// TestProbeKeyNamesWhere: the key changes with the namespaces and
// privileges the probe runs with (here: another process's /proc view),
// so a probe measured in a container is not believed on the host.
func TestProbeKeyNamesWhere(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("needs sh")
	}
	p, _ := exec.LookPath("sh")
	here, ok := probeKey(p)
	if !ok || !strings.Contains(here, "user=user:[") || !strings.Contains(here, "CapEff=") {
		t.Fatalf("key %q lacks the namespace or capabilities", here)
	}
	fake := t.TempDir()
	os.MkdirAll(filepath.Join(fake, "self", "ns"), 0o755)
	os.Symlink("user:[1]", filepath.Join(fake, "self", "ns", "user"))
	os.Symlink("mnt:[2]", filepath.Join(fake, "self", "ns", "mnt"))
	os.WriteFile(filepath.Join(fake, "self", "status"), []byte("CapEff:\t0000000000000000\nSeccomp:\t2\n"), 0o644)
	old := procRoot
	procRoot = fake
	defer func() { procRoot = old }()
	there, ok := probeKey(p)
	if !ok || there == here {
		t.Fatalf("same key in another namespace: %q", there)
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
