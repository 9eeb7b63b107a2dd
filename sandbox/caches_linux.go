// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// ensureCacheLayers creates the workspace's layer directory of every
// existing cache that is not shared, and the Go environment file that
// puts the host's download cache first in GOPROXY. When the layers
// cannot be made, caches are read-only (s.CacheLayer is cleared).
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
		if isGoModCache(c) {
			writeGoEnv(*s)
		}
	}
	return nil
}

// writeGoEnv writes the go env file bound at ~/.config/go/env inside:
// GOPROXY tries the host's download cache (read-only inside) first, then
// what the host's go would use. Variables set in the command's
// environment still win over it, as for go env -w.
func writeGoEnv(s Spec) {
	proxy := os.Getenv("GOPROXY")
	if proxy == "" {
		proxy = "https://proxy.golang.org,direct"
	}
	content := fmt.Sprintf("GOPROXY=file://%s,%s\n", filepath.Join(s.Home, goModDownload), proxy)
	p := filepath.Join(s.CacheLayer, "go.env")
	if b, err := os.ReadFile(p); err == nil && string(b) == content {
		return
	}
	tmp := p + ".tmp"
	if os.WriteFile(tmp, []byte(content), 0o600) == nil {
		os.Rename(tmp, p)
	}
}
