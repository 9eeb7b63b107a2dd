// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package inherit

import (
	"testing"

	"golang.org/x/sys/unix"
)

// TestSeal: a descriptor opened without close-on-exec (as one inherited
// across exec is) has it after Seal, and so does one the close_range
// fallback sees. The control: before Seal it has not. Not parallel: it
// changes the whole process's descriptor table.
func TestSeal(t *testing.T) {
	for _, c := range []struct {
		name string
		seal func() error
	}{
		{"close_range", Seal},
		{"listed", func() error { return cloexecListed(3, "/proc/self/fd") }},
	} {
		t.Run(c.name, func(t *testing.T) {
			fd, err := unix.Open(t.TempDir(), unix.O_RDONLY|unix.O_DIRECTORY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer unix.Close(fd)
			flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
			if err != nil || flags&unix.FD_CLOEXEC != 0 {
				t.Fatalf("control: descriptor %d is close-on-exec before sealing (%#x, %v)", fd, flags, err)
			}
			if err := c.seal(); err != nil {
				t.Fatal(err)
			}
			flags, err = unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
			if err != nil || flags&unix.FD_CLOEXEC == 0 {
				t.Errorf("descriptor %d not close-on-exec after sealing (%#x, %v)", fd, flags, err)
			}
		})
	}
}
