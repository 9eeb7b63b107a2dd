// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/netip"
	"strconv"
	"time"
)

// The SOCKS5 server is written here rather than taken from a library:
// the maintained servers (things-go/go-socks5, wzshiming/socks5 and
// others) are not served by the module proxy this project builds with,
// and armon/go-socks5 is a 2016 pseudo-version. What is needed is small:
// RFC 1928 CONNECT with no authentication; BIND and UDP ASSOCIATE are
// refused (command not supported).

const (
	socksVersion  = 5
	socksNoAuth   = 0
	socksUserPass = 2 // RFC 1929: carries the command identifier
	socksNoMethod = 0xff
	socksConnect  = 1

	atypIPv4   = 1
	atypDomain = 3
	atypIPv6   = 4

	repSuccess        = 0
	repNotAllowed     = 2
	repHostUnreach    = 4
	repCmdUnsupported = 7
	repAtypUnsupport  = 8
)

// serveSOCKS runs one SOCKS5 connection.
func (p *Proxy) serveSOCKS(c net.Conn) {
	defer func() {
		if c != nil {
			c.Close()
		}
	}()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	target, id, err := socksHandshake(c)
	if err != nil {
		var pe *socksProtocolError
		if errors.As(err, &pe) {
			p.noTarget(withCommand(context.Background(), id), "socks5", pe.Error())
		}
		return
	}
	up, err := p.dialChecked(withCommand(context.Background(), id), target, "socks5")
	if err != nil {
		rep := byte(repHostUnreach)
		var ref *refusal
		if errors.As(err, &ref) && !ref.Failed {
			rep = repNotAllowed
		}
		socksReply(c, rep)
		return
	}
	if socksReply(c, repSuccess) != nil {
		up.Close()
		return
	}
	c.SetDeadline(time.Time{})
	conn := c
	c = nil
	pipe(conn, up)
}

// socksHandshake reads the greeting and the request and returns the
// target as host:port, and the user name when the client
// authenticated with one (the command identifier, ident.go).
func socksHandshake(c net.Conn) (string, string, error) {
	var hdr [2]byte
	if _, err := io.ReadFull(c, hdr[:]); err != nil {
		return "", "", err
	}
	methods := make([]byte, hdr[1])
	if _, err := io.ReadFull(c, methods); err != nil {
		return "", "", err
	}
	method := byte(socksNoMethod)
	for _, m := range methods {
		// Prefer user/password: it is how the identifier arrives; it
		// is never checked.
		if m == socksUserPass || m == socksNoAuth && method == socksNoMethod {
			method = m
		}
	}
	if _, err := c.Write([]byte{socksVersion, method}); err != nil {
		return "", "", err
	}
	if method == socksNoMethod {
		return "", "", &socksProtocolError{"no authentication method it offered is supported (no authentication, or user/password)"}
	}
	id := ""
	if method == socksUserPass {
		var err error
		if id, err = socksUser(c); err != nil {
			return "", "", err
		}
	}
	host, err := socksRequest(c)
	return host, id, err
}

// socksProtocolError is a SOCKS5 request the proxy refuses before it
// has a target (recorded, unlike a client that hung up).
type socksProtocolError struct{ what string }

func (e *socksProtocolError) Error() string { return "SOCKS5: " + e.what }

// socksUser reads an RFC 1929 user/password request and accepts it.
func socksUser(c net.Conn) (string, error) {
	var ver [2]byte
	if _, err := io.ReadFull(c, ver[:]); err != nil {
		return "", err
	}
	user := make([]byte, ver[1])
	if _, err := io.ReadFull(c, user); err != nil {
		return "", err
	}
	var pl [1]byte
	if _, err := io.ReadFull(c, pl[:]); err != nil {
		return "", err
	}
	if _, err := io.ReadFull(c, make([]byte, pl[0])); err != nil {
		return "", err
	}
	if _, err := c.Write([]byte{1, 0}); err != nil {
		return "", err
	}
	return string(user), nil
}

// socksRequest reads the CONNECT request and returns its target.
func socksRequest(c net.Conn) (string, error) {
	var req [4]byte
	if _, err := io.ReadFull(c, req[:]); err != nil {
		return "", err
	}
	if req[0] != socksVersion {
		return "", &socksProtocolError{"not version 5"}
	}
	if req[1] != socksConnect {
		socksReply(c, repCmdUnsupported)
		return "", &socksProtocolError{"only CONNECT is supported (no BIND, no UDP ASSOCIATE: UDP does not leave the sandbox)"}
	}
	var host string
	switch req[3] {
	case atypIPv4, atypIPv6:
		n := 4
		if req[3] == atypIPv6 {
			n = 16
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(c, b); err != nil {
			return "", err
		}
		a, _ := netip.AddrFromSlice(b)
		host = a.String()
	case atypDomain:
		var l [1]byte
		if _, err := io.ReadFull(c, l[:]); err != nil {
			return "", err
		}
		b := make([]byte, l[0])
		if _, err := io.ReadFull(c, b); err != nil {
			return "", err
		}
		host = string(b)
	default:
		socksReply(c, repAtypUnsupport)
		return "", &socksProtocolError{"unknown address type"}
	}
	var pb [2]byte
	if _, err := io.ReadFull(c, pb[:]); err != nil {
		return "", err
	}
	return net.JoinHostPort(host, strconv.Itoa(int(binary.BigEndian.Uint16(pb[:])))), nil
}

// socksReply sends a reply with an unspecified bound address: the client
// has no use for the proxy's outgoing address.
func socksReply(c net.Conn, rep byte) error {
	_, err := c.Write([]byte{socksVersion, rep, 0, atypIPv4, 0, 0, 0, 0, 0, 0})
	return err
}
