// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"

	"github.com/lite-sandbox/lite-sandbox/sandbox/settings"
)

// ensureCacheLayers creates the workspace's layer directory of every
// existing cache that is not shared, and the user's settings files (the
// go env file, which also puts the host's download cache first in
// GOPROXY, and the npmrc; sandbox/settings). When the layers cannot be made,
// caches are read-only (s.CacheLayer is cleared) and the settings stay
// out.
func ensureCacheLayers(s *Spec) error {
	if s.CacheLayer == "" {
		return nil
	}
	for _, c := range s.Caches {
		if slices.Contains(s.SharedCaches, c) {
			continue
		}
		if _, err := os.Stat(c); err != nil {
			continue
		}
		if err := os.MkdirAll(cacheLayer(*s, c), 0o700); err != nil {
			s.CacheLayer = ""
			return nil
		}
	}
	writeSettings(*s, os.Getenv)
	return nil
}

// writeSettings writes (or removes, when there is nothing to say) the
// generated settings files of s in its cache layer directory.
func writeSettings(s Spec, getenv func(string) string) {
	dl := ""
	for _, c := range s.Caches {
		if d := goDownloadCache(s, c, OSFS{}); d != "" {
			dl = "file://" + filepath.Join(s.Home, goModDownload)
		}
	}
	var goEnv []byte
	user, err := readSettings(settings.UserGoEnv(s.Home, getenv))
	if dl != "" || err == nil {
		goEnv, _ = settings.GoEnvFile(user, dl, getenv("GOPROXY"))
	}
	var npmrc []byte
	if user, err := readSettings(settings.UserNpmrc(s.Home, getenv)); err == nil {
		npmrc, _ = settings.NpmrcFile(user)
	}
	progEnv := goProgEnv(s, goEnv)
	// A spec without the program (the ring's) leaves the program's file
	// alone: a session's worker may be binding it at this moment.
	prog := s.GoCacheProg != ""
	if goEnv == nil && npmrc == nil && progEnv == nil {
		// Nothing to write: leave the directory uncreated.
		removeSetting(s, goEnvName)
		if prog {
			removeSetting(s, goProgEnvName)
		}
		removeSetting(s, npmrcName)
		return
	}
	if os.MkdirAll(s.CacheLayer, 0o700) != nil {
		return
	}
	writeSetting(s, goEnvName, goEnv)
	if prog {
		writeSetting(s, goProgEnvName, progEnv)
	}
	writeSetting(s, npmrcName, npmrc)
}

// goProgEnv is goEnv with the GOCACHEPROG line of the cache program (a
// user's own GOCACHEPROG dropped: it runs outside the sandbox), nil when
// the program does not serve the build cache. It is written whenever the
// program could serve it, whatever this sandbox uses: its content is the
// same for every sandbox of the workspace (caches.go, goEnvFile).
func goProgEnv(s Spec, goEnv []byte) []byte {
	c := goBuildCacheProg(s, OSFS{})
	if c == "" {
		return nil
	}
	line := goCacheProgSetting(s, c)
	if line == "" {
		return nil
	}
	var b bytes.Buffer
	for _, l := range bytes.SplitAfter(goEnv, []byte("\n")) {
		if !bytes.HasPrefix(bytes.TrimSpace(l), []byte("GOCACHEPROG=")) {
			b.Write(l)
		}
	}
	b.WriteString(line)
	return b.Bytes()
}

// readSettings reads a user's settings file; a missing name or file is
// an error.
func readSettings(p string) ([]byte, error) {
	if p == "" {
		return nil, os.ErrNotExist
	}
	return os.ReadFile(p)
}

// writeSetting replaces the settings file name with content (removes it
// when content is nil), atomically, only when it changed.
func writeSetting(s Spec, name string, content []byte) {
	if content == nil {
		removeSetting(s, name)
		return
	}
	p := filepath.Join(s.CacheLayer, name)
	if b, err := os.ReadFile(p); err == nil && bytes.Equal(b, content) {
		return
	}
	tmp := p + ".tmp"
	if os.WriteFile(tmp, content, 0o600) == nil {
		os.Rename(tmp, p)
	}
}

func removeSetting(s Spec, name string) {
	os.Remove(filepath.Join(s.CacheLayer, name))
}
