// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !unix

package launch

import "github.com/lite-sandbox/lite-sandbox/sandbox/egress"

// watchContinued: no job control signals here (continued_unix.go).
func watchContinued(*egress.Recent) (stop func()) { return func() {} }
