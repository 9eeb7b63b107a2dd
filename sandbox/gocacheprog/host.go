// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package gocacheprog

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// The host side (docs/confinement.md, "Caches"): the launcher (the
// `lite-sandbox run` process, or a session's launcher) serves the host's
// Go build cache on a Unix socket bound into the sandbox. The sandbox
// never sees the host's cache directory: one connection asks for one
// exact action ID ("get <64 hex digits>\n") and gets back "miss\n" or
// "hit <output ID> <size>\n" and the output's bytes, which the cache
// program inside writes to the workspace's layer. The host cache is
// only read, by a path made here from the ID; nothing from the sandbox
// names a path, and there is no listing.
//
// Only compiled packages are served (outputs that are Go archives,
// "!<arch>\n", the go command's module index, "go index", and empty
// outputs such as a compile's empty standard output): an
// action ID is a hash of the inputs the sandbox must itself have
// computed from the same sources, but a cached `go test` result (and
// its test log) is the output of a test run on the host, which may have
// read what the sandbox cannot (a subprocess's files, the network) and
// is not part of its action ID; it is never served.
var servedMagic = [][]byte{[]byte("!<arch>\n"), []byte("go index")}

const (
	// maxServed bounds one output read into memory (a large package's
	// archive is tens of megabytes).
	maxServed = 1 << 30
	// hostConns bounds the connections served at once.
	hostConns = 16
	// hostTimeout bounds reading a request and writing its answer.
	hostTimeout = 2 * time.Minute
)

// Host serves the host's Go build cache Dir to the cache program.
type Host struct {
	Dir string
	// Served and Refused count hits sent and requests answered with an
	// error or a miss for an entry present but not served (tests).
	Served, Refused atomic.Int64
}

// Listen serves dir on a new Unix socket at sock until stop is called.
func Listen(sock, dir string) (h *Host, stop func(), err error) {
	l, err := net.Listen("unix", sock)
	if err != nil {
		return nil, nil, fmt.Errorf("go build cache server: %w", err)
	}
	h = &Host{Dir: dir}
	go h.Serve(l)
	return h, func() { l.Close(); os.Remove(sock) }, nil
}

// Serve answers connections until l is closed.
func (h *Host) Serve(l net.Listener) {
	sem := make(chan struct{}, hostConns)
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			h.serveConn(c)
		}()
	}
}

// serveConn answers one request.
func (h *Host) serveConn(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(hostTimeout))
	line, err := bufio.NewReaderSize(io.LimitReader(c, 128), 128).ReadString('\n')
	action, perr := parseGet(line)
	if err != nil || perr != nil {
		h.Refused.Add(1)
		if perr == nil {
			perr = errors.New("no request line")
		}
		fmt.Fprintf(c, "error: %v\n", perr)
		return
	}
	e, body, ok := h.read(action)
	if !ok {
		io.WriteString(c, "miss\n")
		return
	}
	h.Served.Add(1)
	fmt.Fprintf(c, "hit %x %d\n", e.out, len(body))
	c.Write(body)
}

// parseGet parses "get <action ID in hex>\n": exactly one ID of
// SHA-256's size, lower-case hex, nothing else.
func parseGet(line string) ([]byte, error) {
	rest, ok := strings.CutPrefix(line, "get ")
	rest, nl := strings.CutSuffix(rest, "\n")
	if !ok || !nl || len(rest) != 2*idLen || strings.ToLower(rest) != rest {
		return nil, errors.New(`want "get <action ID>"`)
	}
	id, err := hex.DecodeString(rest)
	if err != nil {
		return nil, errors.New("the action ID is not hex")
	}
	return id, nil
}

// read returns action's entry and output from the host's cache when it
// is served: present, its output the size and SHA-256 its entry names,
// and a compiled package (servedMagic).
func (h *Host) read(action []byte) (entry, []byte, bool) {
	e, err := readEntry(file(h.Dir, action, "a"), action)
	if err != nil || e.size > maxServed {
		return e, nil, false
	}
	f, err := os.Open(file(h.Dir, e.out, "d"))
	if err != nil {
		return e, nil, false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() != e.size {
		h.Refused.Add(1)
		return e, nil, false
	}
	body := make([]byte, e.size)
	if _, err := io.ReadFull(f, body); err != nil {
		return e, nil, false
	}
	sum := sha256.Sum256(body)
	if !bytes.Equal(sum[:], e.out) || !served(body) {
		h.Refused.Add(1)
		return e, nil, false
	}
	return e, body, true
}

func served(body []byte) bool {
	if len(body) == 0 {
		return true
	}
	for _, m := range servedMagic {
		if bytes.HasPrefix(body, m) {
			return true
		}
	}
	return false
}

// fetch asks the host's server at sock for action's output and returns
// it with its output ID; ok is false on a miss or any failure (the go
// command then builds it). The output must hash to its ID.
func fetch(sock string, action []byte) (out, body []byte, ok bool) {
	c, err := net.DialTimeout("unix", sock, 5*time.Second)
	if err != nil {
		return nil, nil, false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(hostTimeout))
	if _, err := fmt.Fprintf(c, "get %x\n", action); err != nil {
		return nil, nil, false
	}
	r := bufio.NewReader(c)
	line, err := r.ReadString('\n')
	f := strings.Fields(line)
	if err != nil || len(f) != 3 || f[0] != "hit" {
		return nil, nil, false
	}
	out, err = hex.DecodeString(f[1])
	size, serr := strconv.ParseInt(f[2], 10, 64)
	if err != nil || serr != nil || len(out) != idLen || size < 0 || size > maxServed {
		return nil, nil, false
	}
	body = make([]byte, size)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, nil, false
	}
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], out) {
		return nil, nil, false
	}
	return out, body, true
}
