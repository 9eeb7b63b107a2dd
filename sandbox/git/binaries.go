// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package git

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Copies returns the paths in dirs (symlinks resolved) that are git:
// the same file as one of gits (a hard link) or a byte-identical copy of
// one. It decides by comparing with the binary, not by a list of names:
// git's exec path holds git itself and programs that are git under
// another name (git-upload-pack, git-receive-pack: symlinks on Debian,
// hard links or copies elsewhere), beside git-* programs that are not
// git (git-shell, git-remote-http). Each path is bound to the shim in
// the ring, so no git there reaches a repository's programs (escape
// class 59, docs/security-model.md; docs/ring.md "Shells and git are
// the shim").
func Copies(gits, dirs []string) []string {
	type bin struct {
		fi os.FileInfo
		p  string
	}
	var known []bin
	for _, g := range gits {
		if fi, err := os.Stat(g); err == nil && fi.Mode().IsRegular() {
			known = append(known, bin{fi, g})
		}
	}
	// isGit: the same file as a known git (most entries of the exec
	// path are links to it), else a copy, read once per file.
	copies := map[string]bool{}
	isGit := func(p string, fi os.FileInfo) bool {
		sized := false
		for _, k := range known {
			if os.SameFile(fi, k.fi) {
				return true
			}
			sized = sized || fi.Size() == k.fi.Size()
		}
		if !sized {
			return false
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return false
		}
		if v, ok := copies[real]; ok {
			return v
		}
		v := false
		for _, k := range known {
			if fi.Size() == k.fi.Size() && sameContent(real, k.p) {
				v = true
				break
			}
		}
		copies[real] = v
		return v
	}
	var out, seen []string
	for _, d := range dirs {
		rd, err := filepath.EvalSymlinks(d)
		if err != nil || !filepath.IsAbs(d) || slices.Contains(seen, rd) {
			continue // /bin is /usr/bin on a merged /usr
		}
		seen = append(seen, rd)
		ents, err := os.ReadDir(rd)
		if err != nil {
			continue
		}
		for _, e := range ents {
			p := filepath.Join(rd, e.Name())
			fi, err := os.Stat(p)
			if err != nil || !fi.Mode().IsRegular() || !isGit(p, fi) {
				continue
			}
			if real, err := filepath.EvalSymlinks(p); err == nil && !slices.Contains(out, real) {
				out = append(out, real)
			}
		}
	}
	slices.Sort(out)
	return out
}

// sameContent reports whether the files a and b hold the same bytes.
func sameContent(a, b string) bool {
	fa, err := os.Open(a)
	if err != nil {
		return false
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return false
	}
	defer fb.Close()
	ba, bb := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		na, ea := io.ReadFull(fa, ba)
		nb, eb := io.ReadFull(fb, bb)
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return false
		}
		if ea != nil || eb != nil {
			return ea != nil && eb != nil
		}
	}
}

// ExecPath is git's exec path as the git binary bin itself reports it
// (`git --exec-path`, which reads no repository and no configuration),
// or "" when it does not answer within a few seconds. It runs bin: the
// caller passes only a git it trusts (the sandbox's HostGits: a
// root-owned one in a system directory).
func ExecPath(bin string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--exec-path").Output()
	if err != nil {
		return ""
	}
	p := strings.TrimSpace(string(out))
	if !filepath.IsAbs(p) {
		return ""
	}
	return filepath.Clean(p)
}
