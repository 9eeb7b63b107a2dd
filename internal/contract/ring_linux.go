// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package contract

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// RingSession returns the session directory of the agent ring this
// process runs in, or "" outside a ring. A shell started with a cleared
// environment (Codex starts MCP servers with a short list of variables,
// env -i in a hook) loses [EnvSession]; in the ring every shell is the
// shim, which could then neither attach nor start a sandbox of its own
// (no namespaces inside the ring), and the command failed. The ring
// binds its session directory (read-only) at its own path, over a mask
// that hides every other session: a mount point named s-* that holds the
// session's metadata and judge socket (the ring needs no other: the
// worker's socket may be hidden from it). The ring's mount points are the
// launcher's; a process in the ring that makes a user namespace of its
// own could show its own shells another "session", which gains it
// nothing it could not do directly in the ring (docs/security-model.md).
func RingSession() string {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	found := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 {
			continue
		}
		dir := unescapeMount(fields[4])
		if !strings.HasPrefix(filepath.Base(dir), "s-") || !filepath.IsAbs(dir) {
			continue
		}
		if fileExists(filepath.Join(dir, MetaName)) && fileExists(filepath.Join(dir, JudgeName)) {
			if found != "" && found != dir {
				return "" // two sessions: not a ring's view; refuse to guess
			}
			found = dir
		}
	}
	return found
}

func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if v, ok := octal(s[i+1 : i+4]); ok {
				b.WriteByte(v)
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func octal(s string) (byte, bool) {
	if len(s) != 3 {
		return 0, false
	}
	v := 0
	for _, c := range s {
		if c < '0' || c > '7' {
			return 0, false
		}
		v = v*8 + int(c-'0')
	}
	return byte(v), v < 256
}
