// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScratchHomeQuiet (#31): Go's telemetry counters in the session's
// scratch home are dropped without a line; a file beside them keeps its
// line (the control), and the directory is removed either way.
func TestScratchHomeQuiet(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		files []string
		line  string
	}{
		{[]string{".config/go/telemetry/local/go@go1.26-linux-amd64-2026-12-02.v1.count"}, ""},
		{[]string{".config/go/telemetry/mode", ".config/go/env", ".bash_history"}, "held ~/.bash_history, ~/.config/go/env;"},
	} {
		dir := t.TempDir()
		for _, f := range tc.files {
			p := filepath.Join(dir, f)
			os.MkdirAll(filepath.Dir(p), 0o700)
			os.WriteFile(p, []byte("x"), 0o600)
		}
		var b bytes.Buffer
		(&scratchHome{dir: dir, home: "/home/u"}).finish(&b, "")
		if tc.line == "" && b.Len() != 0 || tc.line != "" && !strings.Contains(b.String(), tc.line) {
			t.Errorf("%q: closing line %q, want %q", tc.files, b.String(), tc.line)
		}
		if strings.Contains(b.String(), "telemetry") {
			t.Errorf("telemetry named: %q", b.String())
		}
		if _, err := os.Lstat(dir); err == nil {
			t.Error("scratch home not removed")
		}
	}
}
