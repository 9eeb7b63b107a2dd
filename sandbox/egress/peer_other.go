// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !linux

package egress

import "net"

// clientOf: network = "allow" is Linux only; elsewhere every connection
// is one client.
func clientOf(net.Conn) string { return "other" }

// descriptorLimit: not read outside Linux.
func descriptorLimit() uint64 { return 1024 }
