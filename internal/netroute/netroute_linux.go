// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package netroute adds "prohibit" routes to the current network
// namespace over rtnetlink: what network = "open" installs in the
// command sandbox's own namespace, so that host loopback, the host's
// addresses, the LAN, link-local (the metadata address) and the other
// special ranges answer "permission denied" while the internet stays
// reachable through the user-space stack (docs/egress.md, "network =
// open"). It imports only golang.org/x/sys/unix, so that the shim binary
// can link it for the helper command (Command).
package netroute

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
	"os"

	"golang.org/x/sys/unix"
)

// Command is the helper's argv[1]: `EXE __netroutes PREFIX...` adds the
// routes in the namespace it was started in (by nsenter, when the
// namespace belongs to a user namespace this process must join first).
const Command = "__netroutes"

// Main is the helper command: it prohibits every prefix in args.
func Main(args []string) int {
	var ps []netip.Prefix
	for _, a := range args {
		p, err := netip.ParsePrefix(a)
		if err != nil {
			fmt.Fprintf(os.Stderr, "lite-sandbox: %s: %v\n", Command, err)
			return 2
		}
		ps = append(ps, p)
	}
	if err := Prohibit(ps); err != nil {
		fmt.Fprintf(os.Stderr, "lite-sandbox: %s: %v\n", Command, err)
		return 1
	}
	return 0
}

// Prohibit adds a route of type prohibit for each prefix to the main
// table of the calling thread's network namespace. A prefix that is
// already routed so is not an error.
func Prohibit(ps []netip.Prefix) error {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_ROUTE)
	if err != nil {
		return fmt.Errorf("netlink socket: %w", err)
	}
	defer unix.Close(fd)
	if err := unix.Bind(fd, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return fmt.Errorf("netlink bind: %w", err)
	}
	for i, p := range ps {
		if err := request(fd, uint32(i+1), routeMessage(p.Masked(), uint32(i+1))); err != nil {
			return fmt.Errorf("prohibit route %s: %w", p, err)
		}
	}
	return nil
}

// routeMessage is one RTM_NEWROUTE request: type prohibit, the main
// table, destination p.
func routeMessage(p netip.Prefix, seq uint32) []byte {
	addr := p.Addr().AsSlice()
	family := uint8(unix.AF_INET)
	if p.Addr().Is6() {
		family = unix.AF_INET6
	}
	attrLen := unix.SizeofRtAttr + len(addr)
	total := unix.SizeofNlMsghdr + unix.SizeofRtMsg + rtaAlign(attrLen)
	b := make([]byte, total)
	ne := binary.NativeEndian
	ne.PutUint32(b[0:], uint32(total))
	ne.PutUint16(b[4:], unix.RTM_NEWROUTE)
	ne.PutUint16(b[6:], unix.NLM_F_REQUEST|unix.NLM_F_ACK|unix.NLM_F_CREATE|unix.NLM_F_EXCL)
	ne.PutUint32(b[8:], seq)
	m := b[unix.SizeofNlMsghdr:]
	m[0] = family
	m[1] = uint8(p.Bits())
	m[4] = unix.RT_TABLE_MAIN
	m[5] = unix.RTPROT_STATIC
	m[6] = unix.RT_SCOPE_UNIVERSE
	m[7] = unix.RTN_PROHIBIT
	a := m[unix.SizeofRtMsg:]
	ne.PutUint16(a[0:], uint16(attrLen))
	ne.PutUint16(a[2:], unix.RTA_DST)
	copy(a[unix.SizeofRtAttr:], addr)
	return b
}

func rtaAlign(n int) int { return (n + unix.RTA_ALIGNTO - 1) &^ (unix.RTA_ALIGNTO - 1) }

// request sends one message and reads its acknowledgement.
func request(fd int, seq uint32, msg []byte) error {
	if err := unix.Sendto(fd, msg, 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return fmt.Errorf("netlink send: %w", err)
	}
	buf := make([]byte, 4096)
	for {
		n, _, err := unix.Recvfrom(fd, buf, 0)
		if err != nil {
			return fmt.Errorf("netlink receive: %w", err)
		}
		msgs, err := parse(buf[:n])
		if err != nil {
			return err
		}
		for _, m := range msgs {
			if m.seq != seq || m.typ != unix.NLMSG_ERROR {
				continue
			}
			if m.errno == 0 || m.errno == unix.EEXIST {
				return nil
			}
			return m.errno
		}
	}
}

type reply struct {
	typ   uint16
	seq   uint32
	errno unix.Errno
}

func parse(b []byte) ([]reply, error) {
	ne := binary.NativeEndian
	var out []reply
	for len(b) >= unix.SizeofNlMsghdr {
		l := int(ne.Uint32(b[0:]))
		if l < unix.SizeofNlMsghdr || l > len(b) {
			return nil, errors.New("netlink: truncated reply")
		}
		r := reply{typ: ne.Uint16(b[4:]), seq: ne.Uint32(b[8:])}
		if r.typ == unix.NLMSG_ERROR && l >= unix.SizeofNlMsghdr+4 {
			r.errno = unix.Errno(-int32(ne.Uint32(b[unix.SizeofNlMsghdr:])))
		}
		out = append(out, r)
		b = b[min(len(b), (l+unix.NLMSG_ALIGNTO-1)&^(unix.NLMSG_ALIGNTO-1)):]
	}
	return out, nil
}
