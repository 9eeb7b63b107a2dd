// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !unix

package gemini

import "io/fs"

// ownedByRoot is false where there is no uid: no system settings file.
func ownedByRoot(fs.FileInfo) bool { return false }
