// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !linux && !darwin

package sandbox

// Detect always fails with [ErrUnsupported]: there is no backend here.
// Windows users run the Linux build inside WSL2 (gap 9 of the seed).
func Detect() (Backend, error) {
	return Backend{}, ErrUnsupported
}

// Command always fails with [ErrUnsupported].
func Command(b Backend, s Spec, argv []string) (string, []string, error) {
	return "", nil, ErrUnsupported
}

// Find always fails with [ErrUnsupported].
func Find() (Backend, error) { return Backend{}, ErrUnsupported }

// Prepare is [Command] with the [Prepared] shape of the Linux backend.
func Prepare(b Backend, s Spec, argv []string) (*Prepared, error) {
	path, args, err := Command(b, s, argv)
	if err != nil {
		return nil, err
	}
	return &Prepared{Path: path, Args: args}, nil
}
