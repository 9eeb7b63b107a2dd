// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// probeCacheName is the cache file of [Probe] in the private directory.
const probeCacheName = "probe-v1"

// failedProbeTTL bounds how long a failed probe is believed: the usual
// fix (an AppArmor profile, a sysctl) changes neither the boot nor the
// bwrap binary, and a user who applied it must not stay unsandboxed
// (or refused) until the next reboot. `lite-sandbox doctor` re-probes
// at once.
const failedProbeTTL = 5 * time.Minute

// bootIDFile identifies the running boot; tests point it elsewhere.
var bootIDFile = "/proc/sys/kernel/random/boot_id"

// Probe is [Detect] cached per boot and per bwrap binary (path, size,
// mtime, inode), in the user's private directory: the per-command path
// then pays a stat of bwrap, a read of the boot id and a read of the
// cache file instead of two bwrap runs. Both outcomes are cached, so a
// bwrap that cannot create a sandbox here (blocked user namespaces) is
// known before the first command and handled as a missing one: mode
// auto warns and runs unsandboxed, mode on refuses.
func Probe() (Backend, error) { return probe(true) }

// Reprobe runs [Detect] and replaces the cache, for doctor.
func Reprobe() (Backend, error) { return probe(false) }

// probe runs [Detect] and caches its outcome, or with useCache returns
// the cached outcome when there is one. Without a cache key (bwrap or
// the boot id cannot be read) it runs Detect uncached.
func probe(useCache bool) (Backend, error) {
	b, err := find()
	if err != nil {
		return Backend{}, err
	}
	key, ok := probeKey(b.Path)
	if !ok {
		return Detect()
	}
	if useCache {
		if cb, cerr, hit := readProbeCache(key, b.Path); hit {
			return cb, cerr
		}
	}
	return storeProbe(key)
}

func storeProbe(key string) (Backend, error) {
	b, err := Detect()
	writeProbeCache(key, b, err)
	return b, err
}

// probeKey names the boot, the user and the bwrap binary.
func probeKey(path string) (string, bool) {
	var st unix.Stat_t
	if unix.Stat(path, &st) != nil {
		return "", false
	}
	boot, err := os.ReadFile(bootIDFile)
	if err != nil || len(boot) == 0 {
		return "", false
	}
	return fmt.Sprintf("boot=%s uid=%d bwrap=%s dev=%d ino=%d size=%d mtime=%d.%d",
		strings.TrimSpace(string(boot)), os.Getuid(), path, st.Dev, st.Ino, st.Size,
		st.Mtim.Sec, st.Mtim.Nsec), true
}

// readProbeCache returns the cached outcome for key. The file must be
// ours and not writable by others: a planted "failed" entry would make
// mode auto run commands unsandboxed.
func readProbeCache(key, path string) (Backend, error, bool) {
	// No privateDir here (it would mkdir and lstat on every command):
	// the file itself must be ours and not writable by others, which
	// nobody else can arrange, wherever it lies.
	f, err := os.OpenFile(filepath.Join(privateDirPath(), probeCacheName), os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return Backend{}, nil, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o022 != 0 {
		return Backend{}, nil, false
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
		return Backend{}, nil, false
	}
	buf := make([]byte, 4096)
	n, _ := f.Read(buf)
	lines := strings.SplitN(string(buf[:n]), "\n", 4)
	if len(lines) < 3 || lines[0] != key {
		return Backend{}, nil, false
	}
	at, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil {
		return Backend{}, nil, false
	}
	kind, val, _ := strings.Cut(lines[2], "\t")
	switch kind {
	case "ok":
		return Backend{Name: "bwrap", Path: path, Version: val}, nil, true
	case "fail":
		if time.Since(time.Unix(at, 0)) > failedProbeTTL {
			return Backend{}, nil, false
		}
		return Backend{}, &probeError{Msg: unescapeLine(val)}, true
	}
	return Backend{}, nil, false
}

// writeProbeCache replaces the cache file atomically (concurrent shims
// may probe at once; each writes a whole file and renames it).
func writeProbeCache(key string, b Backend, perr error) {
	dir := privateDir()
	if dir == "" {
		return
	}
	line := "ok\t" + b.Version
	if perr != nil {
		line = "fail\t" + escapeLine(perr.Error())
	}
	f, err := os.CreateTemp(dir, probeCacheName+".tmp-")
	if err != nil {
		return
	}
	_, werr := fmt.Fprintf(f, "%s\n%d\n%s\n", key, time.Now().Unix(), line)
	if cerr := f.Close(); werr != nil || cerr != nil || os.Rename(f.Name(), filepath.Join(dir, probeCacheName)) != nil {
		os.Remove(f.Name())
	}
}

// probeError is a failed probe read back from the cache: the message
// Detect gave when it ran.
type probeError struct{ Msg string }

func (e *probeError) Error() string { return e.Msg }

func escapeLine(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(s)
}

func unescapeLine(s string) string {
	return strings.NewReplacer(`\\`, `\`, `\n`, "\n").Replace(s)
}
