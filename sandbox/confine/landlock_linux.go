// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package confine

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// restrictLandlock applies l to the calling thread (held by the caller
// until it execs; no_new_privs already set), through go-landlock's
// ruleset builder: the newest ABI it knows, downgraded to the kernel's
// (best effort), so each right is lost only where the kernel lacks it
// (docs/confinement.md, "The Landlock backend"). The abstract Unix
// socket and signal scopes are part of the same domain (escape classes
// 17, 19, 22). It returns the kernel's ABI.
func restrictLandlock(l *Landlock) (int, error) {
	abi, errno := LandlockVersion()
	if errno != 0 {
		// The backend is chosen only where Landlock was found: a kernel
		// without it now is a sandbox that cannot be built (fail closed).
		return 0, fmt.Errorf("confine: landlock unavailable: %w", errno)
	}
	cfg := landlock.V11.BestEffort()
	if !l.Net {
		cfg.HandledAccessNet = 0
	}
	fd, flags, err := cfg.NewRulesetFD(landlockRules(l)...)
	if err != nil {
		return abi, fmt.Errorf("confine: landlock ruleset: %w", err)
	}
	if fd < 0 {
		return abi, fmt.Errorf("confine: landlock: nothing to enforce at ABI %d", abi)
	}
	defer unix.Close(fd)
	if err := llsys.LandlockRestrictSelf(fd, flags); err != nil {
		return abi, fmt.Errorf("confine: landlock_restrict_self: %w", err)
	}
	return abi, nil
}

// landlockRules turns l into go-landlock rules. A file gets the file
// rights only (the kernel refuses directory rights on a file); a path
// that vanished since the layout was made is skipped. Writable
// directories may rename and link into one another (REFER, ABI 2); the
// read-only ones lack it, so nothing is moved out of or into them.
func landlockRules(l *Landlock) []landlock.Rule {
	var rules []landlock.Rule
	add := func(paths []string, dir, file func(...string) landlock.FSRule, refer, ioctl bool) {
		for _, p := range paths {
			fi, err := os.Stat(p)
			if err != nil {
				continue
			}
			r := file(p)
			if fi.IsDir() {
				r = dir(p)
				if refer {
					r = r.WithRefer()
				}
			}
			if ioctl {
				r = r.WithIoctlDev()
			}
			rules = append(rules, r.IgnoreIfMissing())
		}
	}
	add(l.RO, landlock.RODirs, landlock.ROFiles, false, false)
	add(l.RW, landlock.RWDirs, landlock.RWFiles, true, false)
	add(l.Dev, landlock.RWDirs, landlock.RWFiles, false, true)
	for _, port := range l.ConnectTCP {
		rules = append(rules, landlock.ConnectTCP(port))
	}
	return rules
}
