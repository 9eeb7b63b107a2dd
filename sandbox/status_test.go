// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"errors"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	t.Parallel()
	bw := Backend{Name: "bwrap", Path: "/usr/bin/bwrap", Version: "0.8.0"}
	notFound := errors.New("bwrap not found: install it with `apt-get install bubblewrap`")
	const home = "/home/u"
	for _, c := range []struct {
		name      string
		mode      Mode
		b         Backend
		detectErr error
		workspace string
		state     State
		line      string // Status.String(), or a substring of the error
		refused   bool   // a *RefusedError
		wantErr   bool
	}{
		{"off", ModeOff, bw, nil, "/home/u/p", StateOff, "off (sandbox mode is off)", false, false},
		{"off without backend", ModeOff, Backend{}, notFound, "/", StateOff, "off (", false, false},
		{"auto active", ModeAuto, bw, nil, "/home/u/p", StateActive, "active (bwrap 0.8.0)", false, false},
		{"on active", ModeOn, bw, nil, "/home/u/p", StateActive, "active (bwrap 0.8.0)", false, false},
		{"auto no backend", ModeAuto, Backend{}, notFound, "/home/u/p", StateUnavailable, "unavailable (bwrap not found: install it with `apt-get install bubblewrap`)", false, false},
		{"on no backend", ModeOn, Backend{}, notFound, "/home/u/p", 0, "apt-get install bubblewrap", true, true},
		{"on unsupported", ModeOn, Backend{}, ErrUnsupported, "/home/u/p", 0, "no OS sandbox backend", true, true},
		{"auto empty backend", ModeAuto, Backend{}, nil, "/home/u/p", StateUnavailable, "unavailable (no sandbox backend detected)", false, false},
		{"auto degraded root", ModeAuto, bw, nil, "/", StateDegraded, "degraded (workspace / makes the whole filesystem writable)", false, false},
		{"auto degraded home", ModeAuto, bw, nil, "/home/u", StateDegraded, "degraded (workspace /home/u is the home directory", false, false},
		{"auto degraded ancestor", ModeAuto, bw, nil, "/home", StateDegraded, "degraded (workspace /home contains the home directory", false, false},
		{"on degraded", ModeOn, bw, nil, "/", 0, "workspace / makes the whole filesystem writable", true, true},
		{"on degraded home", ModeOn, bw, nil, "/home/u", 0, "is the home directory", true, true},
		{"unknown mode", Mode("maybe"), bw, nil, "/home/u/p", 0, "unknown mode", false, true},
		{"empty mode", Mode(""), bw, nil, "/home/u/p", 0, "unknown mode", false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, err := Resolve(c.mode, c.b, c.detectErr, c.workspace, home)
			if c.wantErr {
				if err == nil || !strings.Contains(err.Error(), c.line) {
					t.Fatalf("err = %v, want one containing %q", err, c.line)
				}
				var re *RefusedError
				if errors.As(err, &re) != c.refused {
					t.Errorf("err = %T, refused = %v", err, c.refused)
				}
				if c.detectErr != nil && !errors.Is(err, c.detectErr) {
					t.Errorf("err %v does not wrap the detection error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if st.State != c.state || !strings.HasPrefix(st.String(), c.line) {
				t.Errorf("status = %v %q, want %v %q", st.State, st, c.state, c.line)
			}
			if st.Sandboxed() != (c.state == StateActive || c.state == StateDegraded) {
				t.Errorf("Sandboxed() = %v for %v", st.Sandboxed(), st.State)
			}
		})
	}
}

func TestBackendString(t *testing.T) {
	t.Parallel()
	if s := (Backend{Name: "sandbox-exec", Path: "/usr/bin/sandbox-exec"}).String(); s != "sandbox-exec" {
		t.Errorf("got %q", s)
	}
	if s := State(42).String(); s != "State(42)" {
		t.Errorf("got %q", s)
	}
}

func TestSetupError(t *testing.T) {
	t.Parallel()
	cause := errors.New("boom")
	err := error(&SetupError{Op: "layout", Err: cause})
	if err.Error() != "sandbox setup: layout: boom" || !errors.Is(err, cause) {
		t.Errorf("got %v", err)
	}
}
