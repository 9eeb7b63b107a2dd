// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
)

// macOS keeps /etc, /tmp and /var under /private behind symlinks, and
// Seatbelt matches the resolved path, so rules on those paths are emitted
// for both spellings.
var darwinPrivateRoots = []string{"/etc", "/tmp", "/var"}

// darwinSystemRead are read-only on macOS in addition to Spec.System: the
// OS itself, frameworks and developer tools (/Library/Developer, Xcode),
// the dyld shared cache, time zones and xcode-select's choice.
var darwinSystemRead = []string{
	"/System",
	"/Library",
	"/Applications/Xcode.app",
	"/private/var/db/dyld",
	"/private/var/db/timezone",
	"/private/var/select",
}

// darwinTemp are writable temporary directories: /tmp and the per-user
// $TMPDIR and cache dirs under /var/folders.
var darwinTemp = []string{"/private/tmp", "/private/var/folders"}

// SeatbeltProfile returns a deny-by-default SBPL profile for sandbox-exec
// that mirrors the Linux layout: system paths and the /etc allow-list are
// readable, the workspace, temp dirs and Write grants are writable, Read
// grants are readable, the home directory is denied except for what those
// grants cover (so ~/.ssh is not readable, escape class 1, closing gap 1
// of the seed), and the Deny paths are denied last (in SBPL the last
// matching rule wins).
//
// Every path is written as an escaped SBPL string literal. A path that
// cannot be escaped safely (not absolute or clean, a NUL byte, another
// control character than tab, newline or carriage return, or invalid
// UTF-8) is an error: the profile is never built from a guess (escape
// class 33).
func SeatbeltProfile(s Spec) (string, error) {
	b := &sbplWriter{}
	sbplProcessesAndDevices(b)
	if err := sbplSystem(b, s); err != nil {
		return "", fmt.Errorf("seatbelt profile: %w", err)
	}
	if err := sbplGrants(b, s); err != nil {
		return "", fmt.Errorf("seatbelt profile: %w", err)
	}
	sbplProtect(b, s)
	sbplNetwork(b, s)
	if len(s.Deny) > 0 {
		b.line("; Denied paths, last so that they win over every grant above.")
		b.rule("(deny file-read* file-write*", "subpath", s.Deny)
		b.rule("(deny network-outbound", "subpath", s.Deny)
	}
	if b.err != nil {
		return "", fmt.Errorf("seatbelt profile: %w", b.err)
	}
	return b.String(), nil
}

// sbplProcessesAndDevices writes the profile's head: deny by default,
// processes confined to this sandbox, and the small /dev set.
func sbplProcessesAndDevices(b *sbplWriter) {
	b.line("(version 1)")
	b.line("(deny default)")
	b.line("")
	b.line("; Processes: run programs, signal and inspect only this sandbox.")
	b.line("(allow process-fork)")
	b.line("(allow process-exec)")
	b.line("(allow process-info* (target same-sandbox))")
	b.line("(allow signal (target same-sandbox))")
	b.line("(allow sysctl-read)")
	b.line("(allow mach-lookup)")
	b.line("(allow ipc-posix-shm)")
	b.line("(allow ipc-posix-sem)")
	b.line("(allow user-preference-read)")
	b.line("")
	b.line("; Devices: the same small set as bwrap's fresh /dev.")
	b.line("(allow file-read-metadata (literal \"/dev\"))")
	b.line("(allow file-read* file-write-data file-ioctl")
	b.line("  (literal \"/dev/null\") (literal \"/dev/zero\") (literal \"/dev/tty\")")
	b.line("  (literal \"/dev/dtracehelper\") (literal \"/dev/ptmx\")")
	b.line("  (regex #\"^/dev/ttys[0-9]+$\"))")
	b.line("(allow file-read* (literal \"/dev/random\") (literal \"/dev/urandom\"))")
	b.line("(allow file-read* file-write-data (subpath \"/dev/fd\"))")
	b.line("")
}

// sbplSystem writes the read-only system paths, the /etc allow-list, the
// temp dirs and the home directory's denial.
func sbplSystem(b *sbplWriter, s Spec) error {
	b.line("; System paths, read-only.")
	sys := append(append([]string{}, s.System...), darwinSystemRead...)
	b.rule("(allow file-read*", "subpath", sys)
	// The symlinks themselves must be readable for /etc/x, /tmp/x and
	// /var/x to resolve; /private/etc is not listable, as on Linux only
	// the allow-listed names exist.
	b.line("(allow file-read* (literal \"/etc\") (literal \"/tmp\") (literal \"/var\"))")
	b.line("(allow file-read-metadata (literal \"/private\") (literal \"/private/etc\") (literal \"/private/var\"))")
	etc := make([]string, 0, len(s.Etc))
	for _, name := range s.Etc {
		if err := checkEtcName(name); err != nil {
			return err
		}
		etc = append(etc, "/private/etc/"+name)
	}
	b.rule("(allow file-read*", "subpath", etc)
	b.line("")

	b.line("; Temporary directories, read-write.")
	b.rule("(allow file-read* file-write*", "subpath", darwinTemp)
	b.line("")

	if s.Home != "" {
		b.line("; Nothing of the home directory, except what is granted below.")
		b.rule("(deny file-read* file-write*", "subpath", []string{s.Home})
		b.line("")
	}
	return nil
}

// sbplGrants writes the workspace and the Spec's grants, after the
// home directory's denial so that they win over it.
func sbplGrants(b *sbplWriter, s Spec) error {
	if err := checkAbs("workspace", s.Workspace); err != nil {
		return err
	}
	granted := append(append([]string{s.Workspace}, s.Read...), s.Write...)
	if anc := ancestors(granted); len(anc) > 0 {
		b.line("; Ancestors of the grants: metadata only, for realpath and getcwd.")
		b.rule("(allow file-read-metadata", "literal", anc)
		b.line("")
	}
	b.line("; The workspace, read-write.")
	b.rule("(allow file-read* file-write*", "subpath", []string{s.Workspace})
	if len(s.Read) > 0 {
		b.line("; Extra read-only grants.")
		b.rule("(allow file-read*", "subpath", s.Read)
	}
	if len(s.Write) > 0 {
		b.line("; Extra read-write grants.")
		b.rule("(allow file-read* file-write*", "subpath", s.Write)
	}
	if len(s.Tools) > 0 {
		b.line("; Toolchains, read-only.")
		b.rule("(allow file-read*", "subpath", s.Tools)
	}
	if len(s.Caches) > 0 {
		b.line("; Caches, read-write.")
		b.rule("(allow file-read* file-write*", "subpath", s.Caches)
	}
	if s.Git.Common != "" {
		b.line("; A linked worktree's common git directory: read-only, except")
		b.line("; what commits and fetches write.")
		b.rule("(allow file-read*", "subpath", []string{s.Git.Common})
		if len(s.Git.Write) > 0 {
			b.rule("(allow file-read* file-write*", "subpath", s.Git.Write)
		}
	}
	b.line("")
	return nil
}

// sbplProtect writes the protected paths inside the workspace, after the
// workspace grant so that they win over it.
func sbplProtect(b *sbplWriter, s Spec) {
	prot, pins := seatbeltProtect(s)
	if len(prot) == 0 {
		return
	}
	b.line("; Protected paths stay read-only inside the workspace, whether or")
	b.line("; not they exist yet (escape classes 9 to 15); their ancestors")
	b.line("; cannot be renamed away (class 12).")
	b.rule("(deny file-write*", "subpath", prot)
	if len(pins) > 0 {
		b.rule("(deny file-write*", "literal", pins)
	}
	b.line("")
}

// sbplNetwork writes the network rules: open or loopback only, and Unix
// sockets only where the sandbox may write.
func sbplNetwork(b *sbplWriter, s Spec) {
	b.line("; Network. Unix sockets (a connect is network-outbound in SBPL)")
	b.line("; only inside the workspace, Write grants and the per-user temp")
	b.line("; dirs: never the ssh-agent socket under /private/tmp or agent")
	b.line("; sockets in the home directory (escape class 16).")
	if s.Network == NetworkOpen || s.Network == NetworkHost {
		b.line("(allow network-outbound (remote ip \"*:*\"))")
		b.line("(allow network-inbound (local ip \"*:*\"))")
		b.line("(allow network-bind (local ip \"*:*\"))")
		b.line("(allow system-socket)")
		b.line("(allow network-outbound (literal \"/private/var/run/mDNSResponder\"))")
	} else {
		// Loopback only, like --unshare-net; no DNS (escape classes 20
		// and 28).
		b.line("(allow network-outbound (remote ip \"localhost:*\"))")
		b.line("(allow network-inbound (local ip \"localhost:*\"))")
		b.line("(allow network-bind (local ip \"localhost:*\"))")
	}
	b.rule("(allow network*", "subpath", append(append([]string{s.Workspace}, s.Write...), "/private/var/folders"))
	b.line("")
}

// seatbeltProtect returns the protected paths and their ancestors inside
// the workspace (SBPL matches paths, so a path that does not exist yet is
// covered without a placeholder).
func seatbeltProtect(s Spec) (prot, pins []string) {
	seen := map[string]bool{}
	for _, p := range s.Protect {
		prot = append(prot, p.Path)
		for a := path.Dir(p.Path); a != s.Workspace && hostpath.Within(a, s.Workspace) && !seen[a]; a = path.Dir(a) {
			seen[a] = true
			pins = append(pins, a)
		}
	}
	prot = append(prot, s.Git.Protect...)
	for _, p := range s.Git.Placeholders {
		prot = append(prot, p.Path)
	}
	return prot, pins
}

// sbplWriter collects profile lines and the first escaping error.
type sbplWriter struct {
	strings.Builder
	err error
}

func (b *sbplWriter) line(s string) {
	b.WriteString(s)
	b.WriteByte('\n')
}

// rule writes "head (filter "p") ...)" for every path, adding the
// /private spelling where macOS has one. It writes nothing for no paths:
// an operation with no filter would allow (or deny) everything.
func (b *sbplWriter) rule(head, filter string, paths []string) {
	var all []string
	for _, p := range paths {
		if err := checkAbs("path", p); err != nil {
			if b.err == nil {
				b.err = err
			}
			return
		}
		all = append(all, withPrivate(p)...)
	}
	if len(all) == 0 {
		return
	}
	b.WriteString(head)
	for _, p := range all {
		q, err := sbplString(p)
		if err != nil {
			if b.err == nil {
				b.err = err
			}
			return
		}
		fmt.Fprintf(b, "\n  (%s %s)", filter, q)
	}
	b.WriteString(")\n")
}

// withPrivate returns p and, for a path under /etc, /tmp or /var, its
// /private spelling.
func withPrivate(p string) []string {
	for _, r := range darwinPrivateRoots {
		if hostpath.Within(p, r) {
			return []string{p, "/private" + p}
		}
	}
	return []string{p}
}

// ancestors returns every proper ancestor of the paths, "/" first, without
// duplicates, in a stable order.
func ancestors(paths []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range paths {
		var chain []string
		for d := path.Dir(p); ; d = path.Dir(d) {
			chain = append(chain, d)
			if d == "/" || d == "." {
				break
			}
		}
		for i := len(chain) - 1; i >= 0; i-- {
			if d := chain[i]; !seen[d] && d != "." {
				seen[d] = true
				out = append(out, d)
			}
		}
	}
	return out
}

// sbplString quotes p as an SBPL (TinyScheme) string literal. Backslash
// and double quote are escaped, tab, newline and carriage return use their
// escapes; every other control character, a NUL byte and invalid UTF-8
// are refused, since their handling by the profile parser is not
// documented and a mismatch would let a path change the profile's
// meaning (escape class 33).
func sbplString(p string) (string, error) {
	if !utf8.ValidString(p) {
		return "", fmt.Errorf("path %q is not valid UTF-8", p)
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range p {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == 0:
			return "", fmt.Errorf("path %q contains a NUL byte", p)
		case r < 0x20 || r == 0x7f:
			return "", fmt.Errorf("path %q contains control character %U, which cannot be put safely in a profile", p, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String(), nil
}
