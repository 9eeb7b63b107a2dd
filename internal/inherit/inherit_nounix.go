// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !unix

package inherit

// cloexecFrom does nothing where there is no sandbox to keep them from.
func cloexecFrom(int) error { return nil }
