// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !linux

package shims

import (
	"errors"
	"net"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
	"github.com/lite-sandbox/lite-sandbox/shims/approval"
)

// Judge is a session's judge; sessions need Linux (see judge_linux.go).
type Judge struct {
	// Trace, when set, gets every command's moments (the bench).
	Trace func(Times)
	// Approvals takes the questions of `ask` rules (judge_linux.go).
	Approvals *approval.Broker
	// Egress is the session proxy's recent decisions (judge_linux.go).
	Egress *egress.Recent
	// Spec and View are for the file hooks (judge_linux.go).
	Spec *sandbox.Spec
	View *RingView
}

// fileSpec fails: sessions need Linux.
func (j *Judge) fileSpec() (sandbox.Spec, error) {
	return sandbox.Spec{}, errors.New("session judge: sessions are only supported on Linux")
}

// peerFS fails: sessions need Linux.
func peerFS(int) (sandbox.FS, error) {
	return nil, errors.New("session judge: sessions are only supported on Linux")
}

// NewJudge fails: sessions need Linux.
func NewJudge(string, string, []byte, contract.Meta) (*Judge, error) {
	return nil, errors.New("session judge: sessions are only supported on Linux")
}

// ServeConn closes c.
func (j *Judge) ServeConn(c *net.UnixConn) { c.Close() }

// agentProcess is unknown here (no sessions).
func (s *Shim) agentProcess() int { return 0 }

// askerProcess is unknown here (no sessions).
func (s *Shim) askerProcess() int { return 0 }
