// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package probe

// Kernel describes the kernel features the sandbox depends on or will
// use, for `lite-sandbox doctor`. Every field is a short human-readable
// line body.
type Kernel struct {
	// Release is the kernel release, for example "6.8.0-45-generic".
	Release string
	// UserNamespaces says whether unprivileged user namespaces (which
	// bwrap needs when not run as root) are available, and why not.
	UserNamespaces string
	// Landlock is the Landlock ABI version or why it is missing.
	Landlock string
	// LandlockABI is the Landlock ABI version, 0 when unavailable.
	LandlockABI int
	// Seccomp says whether seccomp filters are available.
	Seccomp string
	// AppArmorRestricted: kernel.apparmor_restrict_unprivileged_userns
	// is 1, so bwrap needs an AppArmor profile (see [AppArmorFix]).
	AppArmorRestricted bool
}

// Lines returns one "name: value" line per feature, in a fixed order.
func (k Kernel) Lines() []string {
	return []string{
		"kernel: " + k.Release,
		"user namespaces: " + k.UserNamespaces,
		"landlock: " + k.Landlock,
		"seccomp: " + k.Seccomp,
	}
}
