// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
	"slices"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
	"github.com/lite-sandbox/lite-sandbox/sandbox/gocacheprog"
)

// A cache is code the host runs later: an extracted module in
// ~/go/pkg/mod, a compiled package in ~/.cache/go-build, a package in
// ~/.npm/_npx, a crate's build script in ~/.cargo/registry. So by
// default the sandbox never writes the host's cache: at each cache's
// path it sees a writable directory of the workspace's own (a layer,
// below [Spec.CacheLayer]) that the host does not run from, warm from
// the second build in the workspace on. Go's module cache also sees the
// host's download cache read-only as the first GOPROXY, so that modules
// the host has are extracted from it without the network, and Go's build
// cache is served by a GOCACHEPROG ([Spec.GoCacheProg], package
// gocacheprog) that answers from the layer, else asks the launcher
// ([Spec.GoCacheSocket]) for one exact action ID and copies the host's
// compiled package into the layer; puts go into the layer only. The
// host's build cache is never mounted: a new workspace's first build
// compiles only what the host never built, and sees nothing else of it.
// Caches in [Spec.SharedCaches] (the user's opt-in) are mounted read-write as
// they are. Without a layer directory caches are read-only.

// goModDownload is where the host's Go download cache appears inside;
// goCacheSock the launcher's build cache server, and goCacheProg the
// binary that asks it (fixed paths, so that the generated go env file
// is the same for every sandbox of the workspace).
const (
	goModDownload = ".cache/lite-sandbox/go-mod-download"
	goCacheSock   = ".cache/lite-sandbox/gocache.sock"
	goCacheProg   = ".cache/lite-sandbox/gocacheprog"
)

// CacheLayerDir returns the directory of the workspace's cache layers
// for a home directory: $home/.cache/lite-sandbox/caches/<hash>.
func CacheLayerDir(home, ws string) string {
	if home == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(ws))
	return path.Join(home, ".cache", "lite-sandbox", "caches", hex.EncodeToString(sum[:12]))
}

// cacheLayer returns the layer directory of cache c.
func cacheLayer(s Spec, c string) string {
	name := strings.TrimPrefix(c, "/")
	if s.Home != "" && hostpath.Within(c, s.Home) && c != s.Home {
		name = strings.TrimPrefix(c, s.Home+"/")
	}
	return path.Join(s.CacheLayer, strings.ReplaceAll(name, "/", "!"))
}

// isGoModCache reports whether c is Go's module cache.
func isGoModCache(c string) bool { return strings.HasSuffix(c, "/pkg/mod") }

// cacheMounts returns the mounts of the existing caches.
func cacheMounts(s Spec, fsys FS) ([]Mount, error) {
	var ms []Mount
	goEnvBound := false
	for _, c := range s.Caches {
		if _, err := fsys.Stat(c); err != nil {
			if missing(err) {
				continue
			}
			return nil, err
		}
		switch {
		case slices.Contains(s.SharedCaches, c):
			ms = append(ms, Mount{Kind: Bind, Src: c, Dst: c})
		case s.CacheLayer == "":
			ms = append(ms, Mount{Kind: ROBind, Src: c, Dst: c})
		default:
			ms = append(ms, Mount{Kind: Bind, Src: cacheLayer(s, c), Dst: c})
			if dl := goDownloadCache(s, c, fsys); dl != "" {
				goEnvBound = true
				ms = append(ms,
					Mount{Kind: ROBind, Src: dl, Dst: path.Join(s.Home, goModDownload)},
					Mount{Kind: ROBind, Src: path.Join(s.CacheLayer, goEnvFile(s, fsys)), Dst: path.Join(s.Home, ".config", "go", "env")})
			}
			if usesGoCacheProg(s, c) {
				ms = append(ms, Mount{Kind: ROBind, Src: s.GoCacheProg, Dst: path.Join(s.Home, goCacheProg)})
				if s.GoCacheSocket != "" {
					// The socket only: the host's cache itself is never bound.
					ms = append(ms, Mount{Kind: ROBind, Src: s.GoCacheSocket, Dst: path.Join(s.Home, goCacheSock)})
				}
			}
		}
	}
	return append(ms, settingsMounts(s, fsys, goEnvBound)...), nil
}

// goDownloadCache is the host's Go download cache below cache c when c
// is Go's module cache and gets a layer, and the download cache exists:
// the sandbox then reads it as the first GOPROXY. "" otherwise.
func goDownloadCache(s Spec, c string, fsys FS) string {
	if !isGoModCache(c) || s.Home == "" || s.CacheLayer == "" || slices.Contains(s.SharedCaches, c) {
		return ""
	}
	dl := path.Join(c, "cache", "download")
	if _, err := fsys.Stat(dl); err != nil {
		return ""
	}
	return dl
}

// isGoBuildCache reports whether c is Go's build cache.
func isGoBuildCache(c string) bool { return strings.HasSuffix(c, "/go-build") }

// usesGoCacheProg reports whether cache c is Go's build cache served by
// the cache program: it gets a layer, there is a program, and the go
// env file can name it.
func usesGoCacheProg(s Spec, c string) bool {
	return isGoBuildCache(c) && s.GoCacheProg != "" && s.Home != "" && s.CacheLayer != "" &&
		!slices.Contains(s.SharedCaches, c) && goCacheProgSetting(s, c) != ""
}

// GoBuildCacheServed returns the host's Go build cache that the cache
// program of a sandbox of s asks for (the launcher serves it on
// [Spec.GoCacheSocket]), "" when none.
func GoBuildCacheServed(s Spec) string {
	if s.CacheLayer == "" && s.Home != "" && s.Workspace != "" {
		s.CacheLayer = CacheLayerDir(s.Home, s.Workspace) // as DetectHost will
	}
	return goBuildCacheProg(s, OSFS{})
}

// goBuildCacheProg returns the existing Go build cache the cache program
// serves, "" when none.
func goBuildCacheProg(s Spec, fsys FS) string {
	for _, c := range s.Caches {
		if usesGoCacheProg(s, c) {
			if _, err := fsys.Stat(c); err == nil {
				return c
			}
		}
	}
	return ""
}

// goEnvFile is the generated go env file the sandbox reads: the one that
// also sets GOCACHEPROG when the cache program serves the build cache.
func goEnvFile(s Spec, fsys FS) string {
	if goBuildCacheProg(s, fsys) != "" {
		return goProgEnvName
	}
	return goEnvName
}

// goCacheProgSetting is the GOCACHEPROG line of the go env file for
// build cache c (its layer inside is c itself). The go command splits
// it on spaces, honouring quotes; a path it cannot quote gets no line.
func goCacheProgSetting(s Spec, c string) string {
	args := []string{path.Join(s.Home, goCacheProg), gocacheprog.Command, path.Join(s.Home, goCacheSock), c}
	for i, a := range args {
		if strings.ContainsAny(a, "'\"\n\\") {
			return ""
		}
		if strings.ContainsAny(a, " \t") {
			args[i] = "'" + a + "'"
		}
	}
	return "GOCACHEPROG=" + strings.Join(args, " ") + "\n"
}

// The generated settings files, in the cache layer directory.
const (
	goEnvName     = "go.env"
	goProgEnvName = "go-prog.env" // go.env with GOCACHEPROG (goCacheProgSetting)
	npmrcName     = "npmrc"
)

// settingsMounts binds the generated settings files that exist in the
// cache layer directory at the paths the tools read inside: the go env
// file at ~/.config/go/env (GOENV is not passed into the sandbox; an
// XDG_CONFIG_HOME other than ~/.config is a limit, docs/limits.md), the
// npmrc at ~/.npmrc. goEnvBound says the Go module cache already bound
// the go env file.
func settingsMounts(s Spec, fsys FS, goEnvBound bool) []Mount {
	if s.CacheLayer == "" || s.Home == "" {
		return nil
	}
	var ms []Mount
	for _, f := range []struct{ name, dst string }{
		{goEnvFile(s, fsys), path.Join(s.Home, ".config", "go", "env")},
		{npmrcName, path.Join(s.Home, ".npmrc")},
	} {
		if f.name == goEnvFile(s, fsys) && goEnvBound {
			continue
		}
		src := path.Join(s.CacheLayer, f.name)
		if _, err := fsys.Stat(src); err != nil {
			continue
		}
		ms = append(ms, Mount{Kind: ROBind, Src: src, Dst: f.dst})
	}
	return ms
}
