// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package gocacheprog is the Go build cache a sandboxed command sees, as
// a GOCACHEPROG program (`lite-sandbox __gocacheprog SOCKET LAYER`, run
// by the go command inside the sandbox; the protocol is Go's
// "cacheprog" package of the go command). A get is answered from the workspace's
// own layer, else by asking the launcher's [Host] server on SOCKET for
// that one action ID: a hit's output (a compiled package only) is
// checked against its output ID and written to the layer, and the go
// command reads it there. The sandbox never sees the host's cache
// directory, and a put goes to the layer only, in the go command's own
// disk format, so that tools reading GOCACHE directly find it there. The
// host's cache is never written: a compiled package is code the host
// runs later (docs/confinement.md, "Caches").
//
// It imports only the standard library, so that the shim binary links it.
package gocacheprog

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Command is the hidden subcommand of lite-sandbox and of the shim
// binary that serves the build cache: `exe __gocacheprog HOST LAYER`.
const Command = "__gocacheprog"

// EnvStats names a file to which each run appends one line of what it
// answered ("host=N layer=N miss=N put=N rejected=N"), for tests and
// scripts/bench.
const EnvStats = "LITE_SANDBOX_GOCACHEPROG_STATS"

// request is a message from the go command (cacheprog.Request). A put
// with BodySize > 0 is followed by the body as a base64 JSON string.
type request struct {
	ID       int64
	Command  string
	ActionID []byte `json:",omitempty"`
	OutputID []byte `json:",omitempty"`
	BodySize int64  `json:",omitempty"`
}

// response is a message to the go command (cacheprog.Response).
type response struct {
	ID            int64
	Err           string     `json:",omitempty"`
	KnownCommands []string   `json:",omitempty"`
	Miss          bool       `json:",omitempty"`
	OutputID      []byte     `json:",omitempty"`
	Size          int64      `json:",omitempty"`
	Time          *time.Time `json:",omitempty"`
	DiskPath      string     `json:",omitempty"`
}

// Stats counts what a [Server] answered, for tests and the benchmark.
type Stats struct {
	HostHits, LayerHits, Misses, Puts, Rejected int
}

// Server answers the go command's requests for one process.
type Server struct {
	// Socket is the launcher's [Host] server ("" or absent: the layer
	// alone); Layer is the workspace's writable layer (GOCACHE inside).
	Socket, Layer string

	mu    sync.Mutex // guards enc and stats
	enc   *json.Encoder
	stats Stats
}

// Main is `__gocacheprog SOCKET LAYER`: it serves stdin and stdout.
func Main(args []string, stdin io.Reader, stdout io.Writer) error {
	if len(args) != 2 || args[0] == "" || args[1] == "" {
		return errors.New(Command + ": usage: " + Command + " SOCKET LAYER-GOCACHE")
	}
	s := &Server{Socket: args[0], Layer: args[1]}
	st, err := s.Serve(stdin, stdout)
	if p := os.Getenv(EnvStats); p != "" {
		if f, ferr := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644); ferr == nil {
			fmt.Fprintf(f, "host=%d layer=%d miss=%d put=%d rejected=%d\n", st.HostHits, st.LayerHits, st.Misses, st.Puts, st.Rejected)
			f.Close()
		}
	}
	return err
}

// Serve announces the commands it knows, then answers requests until
// "close" or the end of r. Gets and puts are answered concurrently (the
// protocol allows any order); a put's body is read in order first.
func (s *Server) Serve(r io.Reader, w io.Writer) (Stats, error) {
	bw := bufio.NewWriter(w)
	s.enc = json.NewEncoder(bw)
	flush := func() error { return bw.Flush() }
	if err := s.send(response{KnownCommands: []string{"get", "put", "close"}}, flush); err != nil {
		return s.stats, err
	}
	dec := json.NewDecoder(bufio.NewReader(r))
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		var req request
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return s.result(&wg), nil
			}
			return s.result(&wg), fmt.Errorf("%s: reading a request: %w", Command, err)
		}
		switch req.Command {
		case "get":
			wg.Add(1)
			go func() { defer wg.Done(); s.send(s.get(req), flush) }()
		case "put":
			var body []byte
			if req.BodySize > 0 {
				if err := dec.Decode(&body); err != nil {
					return s.result(&wg), fmt.Errorf("%s: reading the body of put %d: %w", Command, req.ID, err)
				}
			}
			wg.Add(1)
			go func() { defer wg.Done(); s.send(s.put(req, body), flush) }()
		case "close":
			wg.Wait()
			return s.result(&wg), s.send(response{ID: req.ID}, flush)
		default:
			s.send(response{ID: req.ID, Err: fmt.Sprintf("unknown command %q", req.Command)}, flush)
		}
	}
}

func (s *Server) result(wg *sync.WaitGroup) Stats {
	wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// send writes one response line and flushes it (the go command waits
// for each).
func (s *Server) send(r response, flush func() error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.enc.Encode(r); err != nil {
		return fmt.Errorf("%s: writing a response: %w", Command, err)
	}
	return flush()
}

func (s *Server) count(f func(*Stats)) {
	s.mu.Lock()
	f(&s.stats)
	s.mu.Unlock()
}

// get answers from the layer (the sandbox's own puts and what it
// fetched before), else from the launcher's server, whose hit is
// written to the layer first: a miss otherwise, never an error, so that
// the go command rebuilds.
func (s *Server) get(req request) response {
	if e, ok := lookup(s.Layer, req.ActionID); ok {
		s.count(func(st *Stats) { st.LayerHits++ })
		// The go command trims GOCACHE (the layer) of entries unused for
		// five days by their mtimes, which it sets on its own use only.
		touch(file(s.Layer, req.ActionID, "a"), time.Now())
		touch(e.path, time.Now())
		return e.response(req.ID)
	}
	if s.Socket != "" && len(req.ActionID) == idLen {
		if out, body, ok := fetch(s.Socket, req.ActionID); ok {
			if _, err := store(s.Layer, req.ActionID, out, body, time.Now()); err == nil {
				if e, ok := lookup(s.Layer, req.ActionID); ok {
					s.count(func(st *Stats) { st.HostHits++ })
					return e.response(req.ID)
				}
			}
			s.count(func(st *Stats) { st.Rejected++ })
		}
	}
	s.count(func(st *Stats) { st.Misses++ })
	return response{ID: req.ID, Miss: true}
}

// put stores body under the action in the layer.
func (s *Server) put(req request, body []byte) response {
	if int64(len(body)) != req.BodySize {
		return response{ID: req.ID, Err: fmt.Sprintf("put: body of %d bytes, announced %d", len(body), req.BodySize)}
	}
	p, err := store(s.Layer, req.ActionID, req.OutputID, body, time.Now())
	if err != nil {
		return response{ID: req.ID, Err: err.Error()}
	}
	s.count(func(st *Stats) { st.Puts++ })
	return response{ID: req.ID, DiskPath: p}
}
