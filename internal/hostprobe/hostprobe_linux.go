// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package hostprobe

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Walk is what one walk of a tree found.
type Walk struct {
	// Files is how many regular files it tried, Dirs how many
	// directories it listed.
	Files, Dirs int
	// Writable are the files that opened for writing.
	Writable []string `json:",omitempty"`
	// Refused counts the errors of the refused opens by name (EROFS,
	// EACCES...), for the record.
	Refused map[string]int `json:",omitempty"`
	// Truncated is set when the walk stopped at its limit.
	Truncated bool `json:",omitempty"`
	// Err is the error listing the root itself ("" when it was listed
	// or does not exist: Missing).
	Err     string `json:",omitempty"`
	Missing bool   `json:",omitempty"`
}

// WalkWritable walks root without following links and tries to open
// every regular file for writing (O_WRONLY, never O_TRUNC or O_CREAT;
// nothing is ever written; an opened file is closed at once). Entries
// that vanish while it walks (processes that exit) are skipped. It stops
// after limit files.
func WalkWritable(root string, limit int) Walk {
	w := Walk{Refused: map[string]int{}}
	if _, err := os.Lstat(root); errors.Is(err, os.ErrNotExist) {
		w.Missing = true
		return w
	}
	var walk func(dir string) error
	walk = func(dir string) error {
		ents, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		w.Dirs++
		for _, e := range ents {
			p := filepath.Join(dir, e.Name())
			switch t := e.Type(); {
			case t.IsDir():
				walk(p) // a directory that cannot be listed is no file to open
			case t.IsRegular():
				if w.Files >= limit {
					w.Truncated = true
					return nil
				}
				w.Files++
				w.try(p)
			}
		}
		return nil
	}
	if err := walk(root); err != nil {
		w.Err = err.Error()
	}
	return w
}

// try opens p for writing, non-blocking and without a controlling
// terminal, and closes it.
func (w *Walk) try(p string) {
	fd, err := unix.Open(p, unix.O_WRONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
	if err == nil {
		unix.Close(fd)
		w.Writable = append(w.Writable, p)
		return
	}
	var errno unix.Errno
	if errors.As(err, &errno) {
		w.Refused[unix.ErrnoName(errno)]++
	} else {
		w.Refused[err.Error()]++
	}
}

// openOnly opens p for writing and closes it without writing.
func openOnly(p string) error {
	fd, err := unix.Open(p, unix.O_WRONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	return unix.Close(fd)
}

// hostname opens kernel.hostname for writing; with writeSame an open
// file gets its current value back (so that even where it would reach
// the host's name nothing changes), and sethostname(2) is tried with
// the same value.
func hostname(writeSame bool) error {
	const p = "/proc/sys/kernel/hostname"
	cur, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("read: %w", err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		if writeSame {
			if serr := unix.Sethostname([]byte(strings.TrimSpace(string(cur)))); serr == nil {
				return errors.New("sethostname(2) succeeded")
			}
		}
		return err
	}
	defer f.Close()
	if writeSame {
		_, err := f.Write(cur)
		return err
	}
	return nil
}

// Descriptor is one open descriptor of the probe.
type Descriptor struct {
	FD     int
	Dir    bool
	Dev    uint64
	Ino    uint64
	Target string `json:",omitempty"` // where /proc/self/fd points, when readable
	// Parent is "yes: N entries" when openat(fd, "..") listed a
	// directory: a walk out of wherever the descriptor is.
	Parent string `json:",omitempty"`
}

// Descriptors fstats descriptors 3 to 1023 and returns the open ones,
// trying openat(fd, "..") on directories.
func Descriptors() []Descriptor {
	var out []Descriptor
	for fd := 3; fd < 1024; fd++ {
		var st unix.Stat_t
		if unix.Fstat(fd, &st) != nil {
			continue
		}
		d := Descriptor{FD: fd, Dir: st.Mode&unix.S_IFMT == unix.S_IFDIR, Dev: st.Dev, Ino: st.Ino}
		d.Target, _ = os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd))
		if d.Dir {
			d.Parent = parent(fd)
		}
		out = append(out, d)
	}
	return out
}

// parent lists the directory above fd.
func parent(fd int) string {
	up, err := unix.Openat(fd, "..", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return "no: " + err.Error()
	}
	f := os.NewFile(uintptr(up), "..")
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return "no: " + err.Error()
	}
	return fmt.Sprintf("yes: %d entries", len(names))
}
