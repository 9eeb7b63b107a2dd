// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !unix

package ring

import "os"

// fileOwner: no Unix owner here (and no ring: ring.Supported is false).
func fileOwner(os.FileInfo) (uid, gid int, ok bool) { return 0, 0, false }

// noFollow: no such flag here.
const noFollow = 0

// allocated is unknown here.
func allocated(os.FileInfo) (int64, bool) { return 0, false }
