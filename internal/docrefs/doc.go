// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package docrefs holds only a test: every section (§N), document link
// and repository path that a code comment or a document cites resolves
// in this repository (#29), so that a renamed file or a removed section
// is caught where it is cited.
package docrefs
