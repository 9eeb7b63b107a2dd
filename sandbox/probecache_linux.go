// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/lite-sandbox/lite-sandbox/sandbox/probe"
	"golang.org/x/sys/unix"
)

// probeCacheName is the cache file of [Probe] in the private directory.
// v2: the key names the namespaces and privileges the probe ran with.
const probeCacheName = "probe-v2"

// procRoot is where probeContext reads; tests point it elsewhere.
var procRoot = "/proc"

// bootIDFile identifies the running boot; tests point it elsewhere.
var bootIDFile = "/proc/sys/kernel/random/boot_id"

// Probe is [Detect] cached in the user's private directory, keyed by
// what decides whether bwrap can build a sandbox (#28): the boot, the
// bwrap binary (path, size, mtime, inode), the user, the user and mount
// namespaces the caller is in, its capabilities, seccomp mode and
// no_new_privs, and the user-namespace switches as this namespace sees
// them. A probe made in a container that shares the user's /tmp is thus
// never believed on the host, nor the host's inside the container. Only
// a success is cached: a failure, which takes mode auto to running
// unsandboxed, is always measured afresh.
//
// Where bwrap cannot build a sandbox the Landlock backend is returned
// when the kernel has Landlock ([DetectLandlock]); LITE_SANDBOX_BACKEND
// (`--backend`) chooses one of them (#28).
func Probe() (Backend, error) { return chosen(true) }

// Reprobe runs [Detect] and replaces the cache, for doctor.
func Reprobe() (Backend, error) { return chosen(false) }

// chosen is the backend choice over [probe]: landlock on request needs
// no bwrap probe.
func chosen(useCache bool) (Backend, error) {
	if os.Getenv(envBackend) == BackendLandlock {
		return DetectLandlock()
	}
	return withLandlock(probeBwrap(useCache))
}

// probeBwrap runs [Detect] and caches its outcome, or with useCache returns
// the cached outcome when there is one. Without a cache key (bwrap or
// the boot id cannot be read) it runs Detect uncached.
func probeBwrap(useCache bool) (Backend, error) {
	b, err := find()
	if err != nil {
		return Backend{}, err
	}
	key, ok := probeKey(b.Path)
	if !ok {
		return Detect()
	}
	if useCache {
		if cb, hit := readProbeCache(key, b.Path); hit {
			return cb, nil
		}
	}
	nb, err := Detect()
	if err == nil {
		writeProbeCache(key, nb)
	}
	return nb, err
}

// probeKey names the boot, the user, the bwrap binary and the
// caller's namespaces and privileges.
func probeKey(path string) (string, bool) {
	var st unix.Stat_t
	if unix.Stat(path, &st) != nil {
		return "", false
	}
	boot, err := os.ReadFile(bootIDFile)
	if err != nil || len(boot) == 0 {
		return "", false
	}
	where, ok := probeContext()
	if !ok {
		return "", false
	}
	return fmt.Sprintf("boot=%s uid=%d bwrap=%s dev=%d ino=%d size=%d mtime=%d.%d %s",
		strings.TrimSpace(string(boot)), os.Getuid(), path, st.Dev, st.Ino, st.Size,
		st.Mtim.Sec, st.Mtim.Nsec, where), true
}

// probeContext describes where the probe runs: the user and mount
// namespaces, the capability sets, seccomp and no_new_privs (from
// /proc/self/status), and the sysctls that allow user namespaces. A
// part that cannot be read makes the probe uncached.
func probeContext() (string, bool) {
	var b strings.Builder
	for _, ns := range []string{"user", "mnt"} {
		l, err := os.Readlink(procRoot + "/self/ns/" + ns)
		if err != nil {
			return "", false
		}
		fmt.Fprintf(&b, "%s=%s ", ns, l)
	}
	status, err := os.ReadFile(procRoot + "/self/status")
	if err != nil {
		return "", false
	}
	for _, line := range strings.Split(string(status), "\n") {
		name, val, _ := strings.Cut(line, ":")
		switch name {
		case "CapEff", "CapBnd", "Seccomp", "NoNewPrivs":
			fmt.Fprintf(&b, "%s=%s ", name, strings.TrimSpace(val))
		}
	}
	for _, name := range []string{"user.max_user_namespaces", "kernel.unprivileged_userns_clone", "kernel.apparmor_restrict_unprivileged_userns"} {
		v, _, _ := probe.Sysctl(procRoot, name)
		fmt.Fprintf(&b, "%s=%s ", name, v)
	}
	return strings.TrimSpace(b.String()), true
}

// readProbeCache returns the cached backend for key. The file must be
// ours and not writable by others.
func readProbeCache(key, path string) (Backend, bool) {
	// No privateDir here (it would mkdir and lstat on every command):
	// the file itself must be ours and not writable by others, which
	// nobody else can arrange, wherever it lies.
	f, err := os.OpenFile(filepath.Join(privateDirPath(), probeCacheName), os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return Backend{}, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o022 != 0 {
		return Backend{}, false
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
		return Backend{}, false
	}
	buf := make([]byte, 4096)
	n, _ := f.Read(buf)
	lines := strings.SplitN(string(buf[:n]), "\n", 3)
	if len(lines) < 2 || lines[0] != key {
		return Backend{}, false
	}
	version, ok := strings.CutPrefix(lines[1], "ok\t")
	if !ok {
		return Backend{}, false
	}
	return Backend{Name: "bwrap", Path: path, Version: version}, true
}

// writeProbeCache replaces the cache file atomically (concurrent shims
// may probe at once; each writes a whole file and renames it).
func writeProbeCache(key string, b Backend) {
	dir := privateDir()
	if dir == "" {
		return
	}
	f, err := os.CreateTemp(dir, probeCacheName+".tmp-")
	if err != nil {
		return
	}
	_, werr := fmt.Fprintf(f, "%s\nok\t%s\n", key, b.Version)
	if cerr := f.Close(); werr != nil || cerr != nil || os.Rename(f.Name(), filepath.Join(dir, probeCacheName)) != nil {
		os.Remove(f.Name())
	}
}

// AppArmorAdvice is [probe.AppArmorFix] for this host when k says
// AppArmor restricts user namespaces, else nil: the profile attaches to
// the resolved path of the bwrap that [Detect] would run.
func AppArmorAdvice(k probe.Kernel) []string {
	b, err := find()
	if err != nil {
		return nil
	}
	return probe.AppArmorAdvice(k, b.Path)
}
