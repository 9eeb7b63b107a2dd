// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
	"github.com/lite-sandbox/lite-sandbox/launch/ring"
)

// The scratch home of a session. In a per-command sandbox $HOME is an
// empty tmpfs that dies with the command. A session's commands share
// one, and so that the launcher can say at the end what it held (and
// keep it with --keep-home), it is a private host directory bound at
// $HOME rather than a tmpfs in the worker's mount namespace, which the
// launcher cannot reach after the worker is gone. It is outside every
// path mounted in the sandbox (below the host's temp dir; the sandbox's
// /tmp is a tmpfs of its own), mode 0700, and removed at the end.
type scratchHome struct {
	dir  string // "" when there is no home to stand in for
	home string // the user's home, as shown to the sandbox
}

// maxListed bounds the files named in the closing line.
const maxListed = 10

func newScratchHome(home string) (*scratchHome, error) {
	if home == "" || home == "/" {
		return &scratchHome{}, nil
	}
	d, err := os.MkdirTemp("", "lite-sandbox-home-")
	if err != nil {
		return nil, fmt.Errorf("launch: scratch home: %w", err)
	}
	if real, err := filepath.EvalSymlinks(d); err == nil {
		d = real
	}
	return &scratchHome{dir: d, home: home}, nil
}

// finish lists what the scratch home held, copies it to keep when set,
// and removes it. It runs after the session's sandbox is gone, so that
// nothing writes while it reads.
func (h *scratchHome) finish(w io.Writer, keep string) {
	if h == nil || h.dir == "" {
		return
	}
	defer os.RemoveAll(h.dir) // never follows symlinks
	files := h.files()
	if keep != "" {
		if err := copyTree(h.dir, keep); err != nil {
			esc.Fprintf(w, "lite-sandbox: WARNING: could not keep the scratch home in %s: %v\n", keep, err)
		} else {
			esc.Fprintf(w, "lite-sandbox: the session's scratch home (%d files) is kept in %s\n", len(files), keep)
			return
		}
	}
	if len(files) == 0 {
		return
	}
	shown := files
	if len(shown) > maxListed {
		shown = shown[:maxListed]
	}
	extra := ""
	if n := len(files) - len(shown); n > 0 {
		extra = " and " + strconv.Itoa(n) + " more"
	}
	esc.Fprintf(w, "lite-sandbox: the session's scratch home held %s%s; it is gone now (keep it next time with launch --keep-home DIR; persist a directory with sandbox.write)\n",
		strings.Join(shown, ", "), extra)
}

// files returns the files and symlinks of the scratch home as ~/...
// paths, but Go's telemetry directory. Empty regular files and directories are left out: bwrap makes
// them as mount points for the caches, tools and masks bound inside the
// home, and they held nothing of the session's.
func (h *scratchHome) files() []string {
	var out []string
	filepath.WalkDir(h.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if d.Type().IsRegular() {
			if fi, err := d.Info(); err != nil || fi.Size() == 0 {
				return nil
			}
		}
		rel, err := filepath.Rel(h.dir, p)
		if err == nil && !hostpath.Within(filepath.Join(h.home, rel), strings.TrimSuffix(ring.GoTelemetry(h.home), "/")) {
			// Go's telemetry counters, written by every go command,
			// are dropped without a line (#31).
			out = append(out, "~/"+rel)
		}
		return nil
	})
	return out
}

// copyTree copies regular files, directories and symlinks (as links,
// never followed: the sandbox wrote them) from src into dst.
func copyTree(src, dst string) error {
	if err := os.MkdirAll(dst, 0o700); err != nil {
		return err
	}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil || rel == "." {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o700)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			os.Remove(to)
			return os.Symlink(target, to)
		case d.Type().IsRegular():
			return copyFile(p, to)
		}
		return nil // sockets, fifos: nothing to keep
	})
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	if lfi, err := os.Lstat(to); err == nil && !lfi.Mode().IsRegular() {
		return errors.New(to + " exists and is not a regular file")
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, fi.Mode().Perm()|0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
