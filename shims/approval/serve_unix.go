// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build unix

package approval

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// request is one line a client sends; response the line it gets.
type request struct {
	Op    string `json:"op"` // list or answer
	ID    string `json:"id,omitempty"`
	Reply Reply  `json:"reply,omitempty"`
}

type response struct {
	Questions []Question `json:"questions,omitempty"`
	Error     string     `json:"error,omitempty"`
}

// Server is a session's approval socket.
type Server struct {
	l    *net.UnixListener
	path string
}

// Listen serves b on the session's socket under root. Only the
// launcher's own user (and root) may answer: the directory is private
// and every connection's peer is checked too.
func Listen(root, session string, b *Broker) (*Server, error) {
	dir := filepath.Join(root, DirName)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("approval socket: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, fmt.Errorf("approval socket: %w", err)
	}
	path := SocketPath(root, session)
	os.Remove(path) // a stale socket of a crashed launcher with this id
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("approval socket: %w", err)
	}
	s := &Server{l: l, path: path}
	go s.serve(b)
	return s, nil
}

// Close stops serving and removes the socket.
func (s *Server) Close() {
	if s == nil {
		return
	}
	s.l.Close()
	os.Remove(s.path)
	os.Remove(filepath.Dir(s.path)) // only when no other session's socket is left
}

func (s *Server) serve(b *Broker) {
	for {
		c, err := s.l.AcceptUnix()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			time.Sleep(50 * time.Millisecond)
			continue
		}
		go handle(c, b)
	}
}

func handle(c *net.UnixConn, b *Broker) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	uid, pid, err := PeerOfConn(c)
	resp := response{}
	var req request
	switch {
	case err != nil:
		resp.Error = err.Error()
	case uid != os.Getuid() && uid != 0:
		resp.Error = fmt.Sprintf("uid %d may not answer this session's questions", uid)
	default:
		line, rerr := bufio.NewReader(c).ReadBytes('\n')
		if rerr != nil && len(line) == 0 {
			return
		}
		if err := json.Unmarshal(line, &req); err != nil {
			resp.Error = "bad request: " + err.Error()
			break
		}
		switch req.Op {
		case "list":
			resp.Questions = b.Pending()
		case "answer":
			who := fmt.Sprintf("lite-sandbox approve (uid %d, pid %d)", uid, pid)
			if err := b.Answer(req.ID, req.Reply, who); err != nil {
				resp.Error = err.Error()
			}
		default:
			resp.Error = fmt.Sprintf("unknown op %q", req.Op)
		}
	}
	out, _ := json.Marshal(resp)
	c.Write(append(out, '\n'))
}

// PeerOfConn is the uid and pid of the process at the other end of c
// (its pid in the caller's PID namespace; 0 where unknown).
func PeerOfConn(c *net.UnixConn) (uid, pid int, err error) {
	rc, err := c.SyscallConn()
	if err != nil {
		return 0, 0, err
	}
	var cerr error
	if err := rc.Control(func(fd uintptr) { uid, pid, cerr = PeerOf(int(fd)) }); err != nil {
		return 0, 0, err
	}
	if cerr != nil {
		return 0, 0, fmt.Errorf("approval socket: peer: %w", cerr)
	}
	return uid, pid, nil
}

// call sends req to the socket at path and returns the response.
func call(path string, req request) (response, error) {
	c, err := net.DialTimeout("unix", path, 5*time.Second)
	if err != nil {
		return response{}, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	b, _ := json.Marshal(req)
	if _, err := c.Write(append(b, '\n')); err != nil {
		return response{}, err
	}
	line, err := bufio.NewReader(c).ReadBytes('\n')
	if err != nil {
		return response{}, fmt.Errorf("no answer from %s: %w", path, err)
	}
	var r response
	if err := json.Unmarshal(line, &r); err != nil {
		return response{}, fmt.Errorf("bad answer from %s: %w", path, err)
	}
	if r.Error != "" {
		return r, errors.New(r.Error)
	}
	return r, nil
}

// Sockets lists the live sessions' approval sockets under root.
func Sockets(root string) ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(root, DirName))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".sock") && e.Type()&os.ModeSocket != 0 {
			out = append(out, filepath.Join(root, DirName, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

// List returns the pending questions of every live session under root
// (a socket nobody serves any more is skipped).
func List(root string) ([]Question, error) {
	socks, err := Sockets(root)
	if err != nil {
		return nil, fmt.Errorf("approve: %w", err)
	}
	var out []Question
	for _, s := range socks {
		r, err := call(s, request{Op: "list"})
		if err != nil {
			continue
		}
		out = append(out, r.Questions...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Asked.Before(out[j].Asked) })
	return out, nil
}

// Send answers question id (of any live session under root) with r.
func Send(root, id string, r Reply) error {
	qs, err := List(root)
	if err != nil {
		return err
	}
	for _, q := range qs {
		if q.ID == id {
			_, err := call(SocketPath(root, q.Session), request{Op: "answer", ID: id, Reply: r})
			if err != nil {
				return fmt.Errorf("approve %s: %w", id, err)
			}
			return nil
		}
	}
	return fmt.Errorf("approve %s: %w", id, ErrUnknown)
}
