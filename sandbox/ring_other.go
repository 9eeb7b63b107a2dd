// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !linux

package sandbox

// PrepareRing is Linux only: on macOS [RingSeatbeltProfile] is the
// builder, not yet wired to a runner.
func PrepareRing(b Backend, r RingSpec, argv []string) (*Prepared, error) {
	return nil, ErrUnsupported
}

// HostShells returns nothing: the shells are replaced on Linux only.
func HostShells() []string { return nil }

// HostGits returns nothing, as HostShells.
func HostGits([]string) []string { return nil }
