// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package gocacheprog

import (
	"bufio"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary be the cache program the go command
// starts (TestGoCommand).
func TestMain(m *testing.M) {
	if len(os.Args) >= 2 && os.Args[1] == Command {
		if err := Main(os.Args[2:], os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func id(s string) []byte { h := sha256.Sum256([]byte(s)); return h[:] }

// client drives a Server over pipes, as the go command does.
type client struct {
	t   *testing.T
	w   io.WriteCloser
	dec *json.Decoder
}

func (c *client) send(req request, body []byte) {
	c.t.Helper()
	b, _ := json.Marshal(req)
	b = append(b, '\n')
	if body != nil {
		b = append(b, '"')
		b = append(b, base64.StdEncoding.EncodeToString(body)...)
		b = append(b, '"', '\n')
	}
	if _, err := c.w.Write(b); err != nil {
		c.t.Fatal(err)
	}
}

func (c *client) recv() response {
	c.t.Helper()
	var r response
	if err := c.dec.Decode(&r); err != nil {
		c.t.Fatalf("reading a response: %v", err)
	}
	return r
}

// TestProtocol: the handshake, a miss, a put served back from the layer,
// a host entry fetched from the launcher's server into the layer, a host
// entry whose output does not hash to its output ID and a cached test
// output each a miss, bad requests answered with an error, close; the
// host's cache unchanged.
func TestProtocol(t *testing.T) {
	t.Parallel()
	host, layer := t.TempDir(), t.TempDir()
	good := []byte("!<arch>\ncompiled package")
	hostEntries(t, host, good)
	before := listing(t, host)
	sock, _ := startHost(t, host)
	pr, pw := io.Pipe()
	rr, rw := io.Pipe()
	s := &Server{Socket: sock, Layer: layer}
	done := make(chan Stats)
	go func() {
		st, err := s.Serve(pr, rw)
		if err != nil {
			t.Error(err)
		}
		rw.Close()
		done <- st
	}()
	c := &client{t: t, w: pw, dec: json.NewDecoder(bufio.NewReader(rr))}
	if r := c.recv(); strings.Join(r.KnownCommands, ",") != "get,put,close" {
		t.Fatalf("handshake: %+v", r)
	}
	steps := protocolSteps(layer, good)
	for _, st := range steps {
		c.send(st.req, st.body)
		r := c.recv()
		if r.ID != st.req.ID {
			t.Fatalf("%s: response to %d", st.name, r.ID)
		}
		if msg := st.check(r); msg != "" {
			t.Errorf("%s: %s: %+v", st.name, msg, r)
		}
	}
	c.send(request{ID: 9, Command: "close"}, nil)
	if r := c.recv(); r.ID != 9 || r.Err != "" {
		t.Errorf("close: %+v", r)
	}
	st := <-done
	if want := (Stats{HostHits: 1, LayerHits: 1, Misses: 3, Puts: 1}); st != want {
		t.Errorf("stats = %+v, want %+v", st, want)
	}
	if after := listing(t, host); after != before {
		t.Errorf("the host's cache changed:\n%s\nwas\n%s", after, before)
	}
}

// listing is every file below dir with its size and mtime.
func listing(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d %d\n", p, fi.Size(), fi.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func ifNot(ok bool, msg string) string {
	if ok {
		return ""
	}
	return msg
}

func TestParseEntry(t *testing.T) {
	t.Parallel()
	a, o := id("a"), id("o")
	line := fmt.Sprintf(entryForm, a, o, 42, 7)
	for _, tc := range []struct {
		name, line string
		action     []byte
		ok         bool
	}{
		{"valid", line, a, true},
		{"another action", line, id("b"), false},
		{"truncated", line[:len(line)-2] + "\n", a, false},
		{"no newline", line[:len(line)-1] + " ", a, false},
		{"v2", "v2" + line[2:], a, false},
		{"negative size", fmt.Sprintf("v1 %x %x %20d %20d\n", a, o, -1, 7), a, false},
	} {
		e, err := parseEntry([]byte(tc.line), tc.action)
		if (err == nil) != tc.ok {
			t.Errorf("%s: err = %v", tc.name, err)
		}
		if tc.ok && (e.size != 42 || e.time.UnixNano() != 7 || string(e.out) != string(o)) {
			t.Errorf("%s: %+v", tc.name, e)
		}
	}
}

// TestGoCommand: the real go command with this program as GOCACHEPROG
// builds a module from the host's cache without compiling anything the
// host built (no compile in `go build -x`), and leaves the host's cache
// as it was; a package the host never built is compiled and put in the
// layer. Positive control: the host's own build did compile and write.
func TestGoCommand(t *testing.T) {
	t.Parallel()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not installed")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, host, layer := t.TempDir(), t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/x\n\ngo 1.21\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "x.go"), []byte("package x\n\nfunc F() int { return 1 }\n"), 0o644)
	stats := filepath.Join(t.TempDir(), "stats")
	run := func(env ...string) string {
		t.Helper()
		cmd := exec.Command(goBin, "build", "-x", ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), append([]string{"GOTOOLCHAIN=local", "GOFLAGS=", "GOENV=off", "GOCACHEPROG=", EnvStats + "=" + stats}, env...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		return string(out)
	}
	compiles := func(out string) int { return strings.Count(out, "/compile ") }
	if out := run("GOCACHE=" + host); compiles(out) == 0 {
		t.Fatalf("control: the host's build compiled nothing:\n%s", out)
	}
	before := listing(t, host)
	sock, _ := startHost(t, host)
	prog := "GOCACHEPROG=" + exe + " " + Command + " " + sock + " " + layer
	if out := run("GOCACHE="+layer, prog); compiles(out) != 0 {
		t.Errorf("compiled with the host's cache warm:\n%s", out)
	}
	if after := listing(t, host); after != before {
		t.Errorf("the host's cache changed")
	}
	// The go command may also look up an entry of its own that is no
	// compile's and that the host's build did not leave (seen once on a
	// loaded machine: one miss, put in the layer): what matters is that
	// nothing was compiled, that the host's entries were used and
	// nothing was refused.
	if st := lastStats(t, stats); st.HostHits == 0 || st.Rejected != 0 || st.Puts > st.Misses {
		t.Errorf("stats: %+v, want host hits, no refusal, puts only for misses", st)
	}
	// A change the host never built: compiled, put in the layer.
	os.WriteFile(filepath.Join(dir, "x.go"), []byte("package x\n\nfunc F() int { return 2 }\n"), 0o644)
	if out := run("GOCACHE="+layer, prog); compiles(out) != 1 {
		t.Errorf("want one compile:\n%s", out)
	}
	if after := listing(t, host); after != before {
		t.Errorf("the host's cache changed")
	}
	if st := lastStats(t, stats); st.Puts == 0 || st.Misses == 0 {
		t.Errorf("stats: %+v, want a miss and puts", st)
	}
}

// lastStats parses the last line of an [EnvStats] file.
func lastStats(t *testing.T, p string) Stats {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var st Stats
	if _, err := fmt.Sscanf(lines[len(lines)-1], "host=%d layer=%d miss=%d put=%d rejected=%d", &st.HostHits, &st.LayerHits, &st.Misses, &st.Puts, &st.Rejected); err != nil {
		t.Fatalf("stats %q: %v", lines[len(lines)-1], err)
	}
	return st
}

type step struct {
	name  string
	req   request
	body  []byte
	check func(response) string
}

// protocolSteps are TestProtocol's requests, in order, and what each
// response must be (hostEntries made the host's cache).
func protocolSteps(layer string, good []byte) []step {
	return []step{
		{"miss", request{ID: 1, Command: "get", ActionID: id("new")}, nil, func(r response) string {
			return ifNot(r.Miss && r.ID == 1, "want a miss")
		}},
		{"put", request{ID: 2, Command: "put", ActionID: id("new"), OutputID: id("out"), BodySize: 3}, []byte("abc"), func(r response) string {
			return ifNot(r.Err == "" && strings.HasPrefix(r.DiskPath, layer+"/"), "want a path in the layer")
		}},
		{"layer hit", request{ID: 3, Command: "get", ActionID: id("new")}, nil, func(r response) string {
			b, _ := os.ReadFile(r.DiskPath)
			return ifNot(!r.Miss && string(b) == "abc" && string(r.OutputID) == string(id("out")), "want the put back")
		}},
		{"host hit", request{ID: 4, Command: "get", ActionID: id("host action")}, nil, func(r response) string {
			b, _ := os.ReadFile(r.DiskPath)
			return ifNot(!r.Miss && strings.HasPrefix(r.DiskPath, layer+"/") && string(b) == string(good) && r.Size == int64(len(good)), "want the host's entry, copied to the layer")
		}},
		{"unverified host entry", request{ID: 5, Command: "get", ActionID: id("bad action")}, nil, func(r response) string {
			return ifNot(r.Miss, "want a miss for an output that does not hash to its ID")
		}},
		{"host test output", request{ID: 6, Command: "get", ActionID: id("test action")}, nil, func(r response) string {
			return ifNot(r.Miss, "want a miss for a cached test output")
		}},
		{"short action ID", request{ID: 7, Command: "put", ActionID: []byte("x"), OutputID: id("o"), BodySize: 1}, []byte("y"), func(r response) string {
			return ifNot(r.Err != "", "want an error")
		}},
		{"unknown command", request{ID: 8, Command: "get2"}, nil, func(r response) string {
			return ifNot(r.Err != "", "want an error")
		}},
	}
}

// TestLayerHitMarksUse: a layer hit renews the entry's mtimes (the go
// command trims GOCACHE by them); a host hit touches nothing of the
// host's.
func TestLayerHitMarksUse(t *testing.T) {
	t.Parallel()
	host, layer := t.TempDir(), t.TempDir()
	old := time.Now().Add(-48 * time.Hour)
	body := []byte("!<arch>\nbody")
	for _, dir := range []string{host, layer} {
		a := id(dir)
		d, err := store(dir, a, id(string(body)), body, old)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{d, file(dir, a, "a")} {
			os.Chtimes(p, old, old)
		}
	}
	sock, _ := startHost(t, host)
	s := &Server{Socket: sock, Layer: layer}
	for _, tc := range []struct {
		dir     string
		renewed bool
	}{{layer, true}, {host, false}} {
		if r := s.get(request{ID: 1, Command: "get", ActionID: id(tc.dir)}); r.Miss {
			t.Fatalf("%s: miss", tc.dir)
		}
		fi, err := os.Stat(file(tc.dir, id(tc.dir), "a"))
		if err != nil {
			t.Fatal(err)
		}
		if renewed := fi.ModTime().After(old.Add(time.Hour)); renewed != tc.renewed {
			t.Errorf("%s: mtime %v, renewed %v, want %v", tc.dir, fi.ModTime(), renewed, tc.renewed)
		}
	}
}
