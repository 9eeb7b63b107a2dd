// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package ring

import (
	"io"
	"os"
	"path/filepath"
)

// owner is the mode and owner a file goes back with; uid -1 leaves the
// owner (the launcher's own).
type owner struct {
	mode     os.FileMode
	uid, gid int
}

// hostOwner is p's mode and owner on the host, 0600 and the launcher's
// for a new file: never what the ring chose (escape class 56).
func hostOwner(p string) owner {
	o := owner{mode: 0o600, uid: -1, gid: -1}
	fi, err := os.Lstat(p)
	if err != nil {
		return o
	}
	o.mode = fi.Mode().Perm()
	if uid, gid, ok := fileOwner(fi); ok {
		o.uid, o.gid = uid, gid
	}
	return o
}

// writeAtomic replaces p with r's bytes, in o's mode and owner, through
// a temporary file beside it and a rename: a reader sees the old file
// or the new one, never half of it.
func writeAtomic(p string, r io.Reader, o owner) error {
	f, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".lite-sandbox-")
	if err != nil {
		return err
	}
	_, werr := io.Copy(f, r)
	if werr == nil {
		werr = f.Chmod(o.mode)
	}
	if werr == nil && o.uid >= 0 && (o.uid != os.Getuid() || o.gid != os.Getgid()) {
		werr = f.Chown(o.uid, o.gid)
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), p)
	}
	if werr != nil {
		os.Remove(f.Name())
	}
	return werr
}
