// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !unix

package approval

import (
	"errors"
	"net"
)

var errUnsupported = errors.New("approvals need unix sockets")

// Server is a session's approval socket (unix only).
type Server struct{}

// Listen is unsupported here.
func Listen(root, session string, b *Broker) (*Server, error) { return nil, errUnsupported }

// Close does nothing.
func (s *Server) Close() {}

// List is unsupported here.
func List(root string) ([]Question, error) { return nil, errUnsupported }

// Send is unsupported here.
func Send(root, id string, r Reply) error { return errUnsupported }

// PeerOfConn is unsupported here.
func PeerOfConn(c *net.UnixConn) (uid, pid int, err error) { return 0, 0, errUnsupported }

// PeerOf is unsupported here.
func PeerOf(fd int) (uid, pid int, err error) { return 0, 0, errUnsupported }
