// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// Refusals are told apart by command through the proxy credentials of
// the command's own proxy variables: [Env] writes
// http://ID@127.0.0.1:3128 and socks5h://ID@127.0.0.1:1080, clients send
// ID as the user name (Proxy-Authorization: Basic for HTTP and CONNECT,
// RFC 1929 for SOCKS5), and the proxy records it with every connection.
// The proxy never asks for credentials, so a client that sends none
// still works; its connections are recorded without a command and
// explained only when the command's own are missing. The alternatives
// were worse: a port per command needs a listener per command inside
// the session's one sandbox, and time windows are what named the wrong
// host (issue #20). The identifier is no secret: it only sorts the log.

// NewCommandID returns a fresh identifier for one command.
func NewCommandID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// validID reports whether id can be a command identifier: what
// NewCommandID makes, or any short token of letters, digits, '-', '_'
// (so a hostile value cannot forge log fields or lines).
func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

type commandKey struct{}

// withCommand returns ctx carrying the command identifier id (dropped
// when invalid).
func withCommand(ctx context.Context, id string) context.Context {
	if !validID(id) {
		return ctx
	}
	return context.WithValue(ctx, commandKey{}, id)
}

// commandOf returns the command identifier in ctx, or "".
func commandOf(ctx context.Context) string {
	id, _ := ctx.Value(commandKey{}).(string)
	return id
}

// idFromProxyAuth returns the user name of a Basic Proxy-Authorization
// header, or "".
func idFromProxyAuth(h string) string {
	scheme, v, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "basic") {
		return ""
	}
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(v))
	if err != nil {
		return ""
	}
	user, _, _ := strings.Cut(string(b), ":")
	return user
}
