// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package worker

import (
	"errors"
	"os"
	"reflect"
	"testing"
)

func TestRequestRoundTrip(t *testing.T) {
	for _, r := range []Request{
		{Argv: []string{"true"}},
		{Argv: []string{"/bin/bash", "-c", "echo 'ü' \"$X\"", ""}, Env: []string{"X=1", "EMPTY="}, Dir: "/work space"},
		{Argv: []string{"true"}, Env: []string{}, extraCount: 2},
		{Argv: []string{"true"}, Env: []string{}, Token: "0123abcd"},
	} {
		enc := r
		enc.Extra = make([]*os.File, r.extraCount)
		frame, err := encodeRequest(enc)
		if err != nil {
			t.Fatal(err)
		}
		typ, n, err := parseHeader(frame)
		if err != nil || typ != frameRun || n != len(frame)-headerLen {
			t.Fatalf("header: %q %d %v (frame %d bytes)", typ, n, err, len(frame))
		}
		got, err := decodeRequest(frame[headerLen:])
		if err != nil {
			t.Fatal(err)
		}
		if r.Env == nil {
			r.Env = []string{}
		}
		if !reflect.DeepEqual(got, r) {
			t.Errorf("round trip: got %#v, want %#v", got, r)
		}
	}
}

func TestBadRequests(t *testing.T) {
	good, err := encodeRequest(Request{Argv: []string{"a", "b"}, Env: []string{"K=V"}, Dir: "/d"})
	if err != nil {
		t.Fatal(err)
	}
	payload := good[headerLen:]
	nul, _ := encodeRequest(Request{Argv: []string{"a\x00b"}})
	noArgv, _ := encodeRequest(Request{})
	for name, p := range map[string][]byte{
		"empty":      nil,
		"bad magic":  append([]byte("LSW9"), payload[4:]...),
		"truncated":  payload[:len(payload)-1],
		"trailing":   append(append([]byte{}, payload...), 0),
		"nul byte":   nul[headerLen:],
		"no program": noArgv[headerLen:],
		"huge count": append([]byte("LSW3\x00\x00"), 0xff, 0xff, 0xff, 0x7f),
		"old magic":  append([]byte("LSW1"), payload[5:]...),
		"no token":   append([]byte("LSW2"), payload[4:len(payload)-1]...),
		"too many":   append([]byte("LSW3\x09"), payload[5:]...),
	} {
		_, err := decodeRequest(p)
		var pe *ProtocolError
		if !errors.As(err, &pe) {
			t.Errorf("%s: got %v, want a *ProtocolError", name, err)
		}
	}
	if _, _, err := parseHeader([]byte{frameRun, 0xff, 0xff, 0xff, 0xff}); err == nil {
		t.Error("oversized frame accepted")
	}
}
