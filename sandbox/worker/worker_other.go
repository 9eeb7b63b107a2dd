// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !linux

package worker

import (
	"context"
	"os"
	"syscall"
	"time"
)

// ServeFD fails with [ErrUnsupported]: the worker needs Linux.
func ServeFD(fd int) error { return ErrUnsupported }

// Run fails with [ErrUnsupported]: the worker needs Linux.
func Run(ctx context.Context, socketPath string, req Request, stdin, stdout, stderr *os.File) (status int, err error) {
	return -1, ErrUnsupported
}

// Forward fails with [ErrUnsupported]: the worker needs Linux.
func Forward(socketPath string, req Request, stdin, stdout, stderr *os.File) (status int, err error) {
	return -1, ErrUnsupported
}

// Ping fails with [ErrUnsupported]: the worker needs Linux.
func Ping(ctx context.Context, socketPath string) error { return ErrUnsupported }

// Conn is a command sent to a worker; see the Linux version.
type Conn struct{ Started, Reaped time.Time }

// Start fails with [ErrUnsupported]: the worker needs Linux.
func Start(ctx context.Context, socketPath string, req Request, stdin, stdout, stderr *os.File) (*Conn, error) {
	return nil, ErrUnsupported
}

// Signal fails with [ErrUnsupported].
func (c *Conn) Signal(sig syscall.Signal) error { return ErrUnsupported }

// Close does nothing.
func (c *Conn) Close() error { return nil }

// Wait fails with [ErrUnsupported].
func (c *Conn) Wait() (int, error) { return -1, ErrUnsupported }

// RunRing fails with [ErrUnsupported]: the worker needs Linux.
func RunRing(ctx context.Context, req Request, stdin, stdout, stderr *os.File) (status int, err error) {
	return -1, ErrUnsupported
}
