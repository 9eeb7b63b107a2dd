// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package agents

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lite-sandbox/lite-sandbox/internal/cachedir"
)

// The agents' CLIs are Node programs (or Node launchers of a native
// binary), and `AGENT --version` costs 0.3 to 1 s of Node start-up. The
// answer only changes when the installed CLI changes, so it is cached
// per binary identity: the resolved path, its inode, size and mtime, and
// a hash of the package.json of the package that holds it (npm writes
// every file with the same fixed mtime, so a reinstall of another
// version can keep path, size and mtime; the package.json tells them
// apart). See docs/performance.md.

// versionCacheFile is where cached versions live, private to the user.
func versionCacheFile() string {
	dir := cachedir.Dir()
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "versions.json")
}

// binaryIdentity is the cache key of the program at p (as found on PATH),
// or "" when it cannot be determined (then nothing is cached).
func binaryIdentity(p string, args []string) string {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return ""
	}
	fi, err := os.Stat(real)
	if err != nil {
		return ""
	}
	dev, ino := fileID(fi)
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%q\x00%d\x00%d\x00%d\x00%d\n", real, args, dev, ino, fi.Size(), fi.ModTime().UnixNano())
	if pkg := nearestPackageJSON(real); pkg != "" {
		if b, err := os.ReadFile(pkg); err == nil {
			h.Write(b)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// nearestPackageJSON returns the package.json of the npm package that
// holds file, looking a few directories up, or "".
func nearestPackageJSON(file string) string {
	dir := filepath.Dir(file)
	for range 6 {
		p := filepath.Join(dir, "package.json")
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return ""
}

// cachedVersion returns the cached version output for key.
func cachedVersion(key string) (string, bool) {
	f := versionCacheFile()
	if key == "" || f == "" {
		return "", false
	}
	m := readVersionCache(f)
	v, ok := m[key]
	return v, ok
}

// storeVersion records the version for key. Failures are ignored: the
// cache only saves time.
func storeVersion(key, version string) {
	f := versionCacheFile()
	if key == "" || f == "" {
		return
	}
	m := readVersionCache(f)
	// Old identities are never read again; keep the file small.
	if len(m) > 64 {
		m = map[string]string{}
	}
	m[key] = version
	b, err := json.Marshal(m)
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(f), 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(f), ".versions-*")
	if err != nil {
		return
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return
	}
	if tmp.Close() == nil {
		os.Rename(tmp.Name(), f)
	}
}

func readVersionCache(f string) map[string]string {
	m := map[string]string{}
	b, err := os.ReadFile(f)
	if err == nil {
		json.Unmarshal(b, &m)
	}
	return m
}
