// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !linux && !darwin

package sandbox

// Detect always fails with [ErrUnsupported]: there is no backend here.
// Windows users run the Linux build inside WSL2 (gap 9 of the seed).
func Detect() (Backend, error) {
	return Backend{}, ErrUnsupported
}

// Prepare always fails with [ErrUnsupported].
func Prepare(b Backend, s Spec, argv []string) (*Prepared, error) {
	return nil, ErrUnsupported
}
