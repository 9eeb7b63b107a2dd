// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package forward is the shim inside a session: a small forwarder that
// sends its argv, working directory, environment and stdio to the
// session's judge (package shims, in the launcher) in one round trip,
// relays signals, waits, and returns the command's status. It links no
// policy, no shell parser and no HTTP, so that a command pays little
// more than an empty Go program's start (docs/performance.md, "The
// session path"). Outside a session the shim binary hands over to the
// lite-sandbox binary beside it ([MainBinary]), and under git's name it
// runs the real git ([ExecGit]).
package forward

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/internal/shellname"
	"github.com/lite-sandbox/lite-sandbox/sandbox/worker"
)

// EnvShimTimes carries the shim's start and the moment it sent its
// request, "MAIN,SENT" in Unix nanoseconds, to the judge, which takes it
// out of the command's environment (the bench's phase split).
const EnvShimTimes = "LITE_SANDBOX_SHIM_TIMES"

// IsShellName reports whether argv0's base name makes the binary the
// shim: a shell's name, or any name containing "bash" (a session's shim
// is <session>/bin/bash; Claude Code takes only such paths).
// The names are the one list the agent ring binds (internal/shellname);
// package shims maps each to the real shell that runs the command.
func IsShellName(argv0 string) bool { return shellname.Is(argv0) }

// IsShimName is [IsShellName], git's name ([IsGitName]), or the bundled
// shim binary's own name.
func IsShimName(argv0 string) bool {
	return IsShellName(argv0) || IsGitName(argv0) || strings.HasPrefix(filepath.Base(argv0), contract.ShimBinary)
}

// IsGitName reports whether the shim was started as git (git, /usr/bin/git)
// or as a git program under its dashed name (git-upload-pack, which git's
// exec path holds as git itself): the agent ring binds the shim over
// every git binary, so that any git runs in the command sandbox
// (docs/security-model.md, escape classes 47 and 59).
func IsGitName(argv0 string) bool {
	base := filepath.Base(argv0)
	return base == "git" || GitSubcommand(argv0) != ""
}

// GitSubcommand is the subcommand a dashed git name stands for
// (git-upload-pack: upload-pack), or "".
func GitSubcommand(argv0 string) string {
	sub, ok := strings.CutPrefix(filepath.Base(argv0), "git-")
	if !ok || sub == "" || IsShellName(argv0) {
		return ""
	}
	return sub
}

// Session returns the session directory this shim belongs to:
// $LITE_SANDBOX_SESSION, else the agent ring's (a shell started with a
// cleared environment), else "".
func Session() string {
	if d := os.Getenv(contract.EnvSession); d != "" {
		return d
	}
	return contract.RingSession()
}

// Run sends argv (the shim's own, argv[0] included) to the judge of the
// session in dir with this process's working directory, environment and
// stdio, and returns the command's status. main is when the shim
// started. Nothing runs when the judge cannot be reached: a shim fails
// closed.
func Run(dir string, argv []string, stderr io.Writer, main time.Time) int {
	status, err := Send(dir, argv, main)
	if err != nil {
		esc.Fprintf(stderr, "lite-sandbox: %v\n", err)
		return exit.Sandbox
	}
	return status
}

// Send is [Run] without the printing: the status of the command the
// judge ran, or an error (then nothing was run, or the judge went away
// while it ran; it is never run again). `lite-sandbox hook NAME` sends
// its hook this way and denies the call when the judge cannot answer.
func Send(dir string, argv []string, main time.Time) (int, error) {
	if !filepath.IsAbs(dir) {
		return 0, fmt.Errorf("session %q: not an absolute path; nothing ran", dir)
	}
	dir = filepath.Clean(dir)
	// The environment is the agent's: a planted directory would choose
	// the judge the shim trusts.
	if err := contract.CheckPrivate(dir, true); err != nil {
		return 0, fmt.Errorf("session %s: %w; nothing ran", dir, err)
	}
	cwd, err := os.Getwd()
	if err != nil {
		return 0, fmt.Errorf("working directory: %w; nothing ran", err)
	}
	// The broker's descriptor is the ring's, never a command's.
	ring := os.Getenv(contract.EnvJudgeFD) != ""
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, contract.EnvJudgeFD+"=") })
	env = append(env, EnvShimTimes+"="+strconv.FormatInt(main.UnixNano(), 10)+","+strconv.FormatInt(time.Now().UnixNano(), 10))
	req := worker.Request{Argv: argv, Env: env, Dir: cwd}
	var status int
	if ring {
		// The Landlock agent ring: no Unix socket of its own (#28).
		status, err = worker.RunRing(context.Background(), req, os.Stdin, os.Stdout, os.Stderr)
	} else {
		// A blocking socket of its own, not Go's network poller: fewer
		// threads to start and to end (docs/performance.md, "The session path").
		status, err = worker.Forward(filepath.Join(dir, contract.JudgeName), req, os.Stdin, os.Stdout, os.Stderr)
	}
	switch {
	case err == nil:
		return status, nil
	case errors.Is(err, worker.ErrNoWorker):
		return 0, fmt.Errorf("the session's judge is not running (has the session ended?); nothing ran: %w", err)
	case errors.Is(err, worker.ErrWorkerDied):
		return 0, fmt.Errorf("the session's judge went away while the command ran; it was not run again: %w", err)
	}
	return 0, fmt.Errorf("session judge: %w", err)
}

// MainBinary is the lite-sandbox binary beside the running shim binary,
// which does everything the shim does not (contract.FindShimBinary
// installs them together).
func MainBinary() (string, error) {
	self, err := os.Executable()
	if err == nil {
		self, err = filepath.EvalSymlinks(self)
	}
	if err != nil {
		return "", fmt.Errorf("own executable: %w", err)
	}
	p := filepath.Join(filepath.Dir(self), "lite-sandbox")
	if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
		return "", fmt.Errorf("lite-sandbox is not installed beside %s", self)
	}
	return p, nil
}

// ExecGit replaces the process with the real git (the first one on PATH
// that is not this binary), with argv as given: what the shim does
// under git's name outside a session. It returns only on error.
func ExecGit(argv []string) error {
	p, err := RealGit(os.Getenv("PATH"))
	if err != nil {
		return err
	}
	return fmt.Errorf("exec %s: %w", p, syscall.Exec(p, argv, os.Environ()))
}

// RealGit finds git in the directories of path, skipping this binary
// (bound over git in the agent ring) and relative directories.
func RealGit(path string) (string, error) {
	var self os.FileInfo
	if exe, err := os.Executable(); err == nil {
		self, _ = os.Stat(exe)
	}
	for _, d := range filepath.SplitList(path) {
		if !filepath.IsAbs(d) {
			continue
		}
		p := filepath.Join(d, "git")
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 {
			continue
		}
		if self != nil && os.SameFile(fi, self) {
			continue
		}
		return p, nil
	}
	return "", errors.New("git: not found on PATH (other than lite-sandbox's shim)")
}
