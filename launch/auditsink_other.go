// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !linux

package launch

// auditSink exists only with sessions (Linux); elsewhere the shim writes
// its audit records itself.
type auditSink struct{}
