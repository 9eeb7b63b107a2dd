// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package confine

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// LandlockOption is the option of [Command] that carries a [Landlock]
// policy: `lite-sandbox __confine --landlock JSON -- PROGRAM ARGS...`.
// It is the whole sandbox of the Landlock backend (#28): no bwrap, no
// namespace, the rules applied by the process to itself before it
// executes the program.
const LandlockOption = "--landlock"

// EnvTmpdir names the Landlock backend's temp directory in the
// confined program's environment: a session's worker sets TMPDIR to it
// in each command's (sandbox/worker), which arrives with the shim's.
const EnvTmpdir = "LITE_SANDBOX_LANDLOCK_TMPDIR"

// Landlock is the filesystem and network policy of the Landlock backend,
// built by package sandbox from the same layout as bwrap's mounts
// (sandbox/landlock_linux.go) and applied by [Exec]. Landlock only
// grants: what no rule names is neither readable nor writable.
type Landlock struct {
	// RO are hierarchies (or single files) readable and executable.
	RO []string `json:"ro,omitempty"`
	// RW are hierarchies (or files) readable, writable and executable,
	// with renames and links between them (REFER).
	RW []string `json:"rw,omitempty"`
	// Dev are device files usable read-write with their ioctls.
	Dev []string `json:"dev,omitempty"`
	// Net restricts TCP (Landlock ABI 4): only ConnectTCP may be
	// reached; nothing may be bound.
	Net        bool     `json:"net,omitempty"`
	ConnectTCP []uint16 `json:"tcp,omitempty"`
	// Tmpdir replaces TMPDIR (there is no private /tmp).
	Tmpdir string `json:"tmpdir,omitempty"`
	// Broker marks the agent ring's program, which inherits the judge's
	// broker (contract.EnvJudgeFD): its filter sends
	// socket(AF_UNIX, SOCK_STREAM, contract.JudgeProto) to the launcher,
	// the listener passed over the broker (docs/ring.md).
	Broker bool `json:"broker,omitempty"`
}

// argPart bounds each argument that carries a part of the policy's
// JSON: the kernel refuses a single argument over 128 KiB
// (MAX_ARG_STRLEN, E2BIG), which a policy of many grants outgrows (a
// workspace of / splits each directory above a hidden path into one
// grant per entry, class 34).
const argPart = 64 << 10

// Args returns the confinement's arguments before the program: the
// option and its JSON, the option repeated before each further part of
// a JSON longer than argPart.
func (l Landlock) Args() []string {
	b, err := json.Marshal(l)
	if err != nil {
		panic(err) // strings and integers only
	}
	var out []string
	for len(b) > argPart {
		out = append(out, LandlockOption, string(b[:argPart]))
		b = b[argPart:]
	}
	return append(out, LandlockOption, string(b))
}

// ParseArgs reads what follows [Command]: optional `--landlock JSON`
// (repeated: the parts of one JSON, [Landlock.Args]), then `--`, then
// the program. ll is nil without the option.
func ParseArgs(args []string) (ll *Landlock, argv []string, err error) {
	var parts []string
	for len(args) >= 2 && args[0] == LandlockOption {
		parts = append(parts, args[1])
		args = args[2:]
	}
	if parts != nil {
		ll = &Landlock{}
		if err := json.Unmarshal([]byte(strings.Join(parts, "")), ll); err != nil {
			return nil, nil, fmt.Errorf("confine: %s: %w", LandlockOption, err)
		}
	}
	if len(args) == 0 || args[0] != "--" {
		return nil, nil, errors.New("confine: want -- before the program")
	}
	return ll, args[1:], nil
}

// IsCommand reports whether args (a whole argv) run the confinement
// step: `EXE __confine -- ...` or `EXE __confine --landlock JSON -- ...`.
func IsCommand(args []string) bool {
	return len(args) >= 3 && args[1] == Command && (args[2] == "--" || args[2] == LandlockOption)
}

// landlockUnixABI is the first Landlock ABI that restricts connecting to
// Unix sockets by path (LANDLOCK_ACCESS_FS_RESOLVE_UNIX); below it the
// Landlock backend refuses socket(AF_UNIX) with seccomp instead.
const landlockUnixABI = 9

// LandlockLacks says, per item, what the Landlock backend cannot give
// that the bwrap backend does, on a kernel with Landlock ABI abi (for
// doctor, --dry-run and the first line of a run or session). The first
// items hold at every ABI; the rest are what this kernel's ABI lacks.
func LandlockLacks(abi int) []string {
	l := []string{
		"no private /tmp (a session directory and TMPDIR instead)",
		"host processes visible (no PID namespace; signals and ptrace still confined)",
		"no fresh /proc (the host's, read-only)",
		"protected paths inside the workspace not read-only: the launcher's guard puts each back from its copy (or quarantines a new one) right after a change, with a window",
		"file metadata (stat) of hidden paths readable",
		"UDP and ICMP not filtered",
		"no System V IPC (refused by seccomp: the host's)",
		"processes may outlive the command (no PID namespace; they stay confined)",
	}
	if abi < landlockUnixABI {
		l = append(l, "ABI<9: no Unix sockets at all (socket(AF_UNIX) refused by seccomp, so that the host's sockets stay out of reach; socketpair works)")
	}
	if abi < 2 {
		l = append(l, "ABI<2: no renames or links between directories")
	}
	if abi < 3 {
		l = append(l, "ABI<3: truncate of read-only files not refused")
	}
	if abi < 4 {
		l = append(l, "ABI<4: TCP not filtered (network off and allow are not enforced)")
	}
	if abi < 5 {
		l = append(l, "ABI<5: device ioctls not filtered")
	}
	if abi < 6 {
		l = append(l, "ABI<6: abstract Unix sockets and signals to host processes not scoped")
	}
	return l
}

// LandlockLine is the one line naming the backend, its ABI and what it
// lacks.
func LandlockLine(abi int) string {
	return fmt.Sprintf("landlock backend (ABI %d; no user namespace): lacks %s", abi, strings.Join(LandlockLacks(abi), "; "))
}
