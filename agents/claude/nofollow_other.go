// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !unix

package claude

// openNoFollow: no such flag here (no sessions either); the file is
// still checked to be regular after opening.
const openNoFollow = 0
