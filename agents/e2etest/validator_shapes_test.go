// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidatorShapes (#26, finding 7): through the real launcher
// (lite-sandbox run) and bubblewrap, as root and as nobody, the shapes
// peer suites flag are judged like what they amount to, each beside a
// control of the same tool that runs: find -delete of the workspace like
// rm -rf . (control: find -name '*.pyc' -delete removes only that file);
// a shell reading a process substitution like curl | sh (control: diff
// of two process substitutions runs); sed's e command (control: a plain
// sed program runs).
func TestValidatorShapes(t *testing.T) {
	t.Parallel()
	users(t, func(t *testing.T, e *env) {
		e.write("keep.txt", "kept\n")
		e.write("junk.pyc", "x")
		for _, c := range []struct {
			name    string
			refused []string
			control []string
			want    string
		}{
			{"find -delete", []string{"find", ".", "-delete"}, []string{"find", ".", "-name", "*.pyc", "-delete"}, ""},
			{"find -exec rm", []string{"find", ".", "-exec", "rm", "-rf", "{}", "+"}, []string{"find", ".", "-name", "keep.txt"}, "keep.txt"},
			{"process substitution", []string{"bash", "-c", "bash <(echo echo ran)"}, []string{"bash", "-c", "diff <(echo a) <(echo a) && echo same"}, "same"},
			{"sed e", []string{"sed", "1e rm -rf .", "keep.txt"}, []string{"sed", "s/kept/seen/", "keep.txt"}, "seen"},
			{"sed s///e", []string{"sed", "s/kept/touch sed-ran/e", "keep.txt"}, []string{"sed", "-n", "p", "keep.txt"}, "kept"},
		} {
			out, errs, code := e.run(nil, c.refused...)
			if code != 77 || !strings.Contains(errs, "lite-sandbox: blocked by ") {
				t.Errorf("%s: %q ran (exit %d):\n%s%s", c.name, c.refused, code, out, errs)
			}
			out, errs, code = e.run(nil, c.control...)
			if code != 0 || !strings.Contains(out, c.want) {
				t.Errorf("%s: control %q: exit %d\n%s%s", c.name, c.control, code, out, errs)
			}
		}
		if _, err := os.Stat(filepath.Join(e.ws, "keep.txt")); err != nil {
			t.Errorf("a refused find removed the workspace's files: %v", err)
		}
		if _, err := os.Stat(filepath.Join(e.ws, "junk.pyc")); err == nil {
			t.Error("control: find -name '*.pyc' -delete left the file")
		}
		if _, err := os.Stat(filepath.Join(e.ws, "sed-ran")); err == nil {
			t.Error("sed's e command ran")
		}
	})
}
