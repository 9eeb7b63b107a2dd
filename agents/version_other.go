// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !unix

package agents

import "os"

// fileID has no inode to offer here; size, mtime and package.json remain.
func fileID(os.FileInfo) (dev, ino uint64) { return 0, 0 }
