// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package term

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// How often the supervisor looks whether the agent stopped: quickly for
// a while after the suspend key went by (the agent stops itself when it
// reads it, or its pty's line discipline stops it), slowly otherwise (a
// SIGSTOP from elsewhere).
// KillDelay is how long the agent has after SIGTERM, when the session
// ends, before it is killed.
const KillDelay = 5 * time.Second

const (
	stopPollFast   = 20 * time.Millisecond
	stopPollWindow = 3 * time.Second
	stopPollSlow   = time.Second
)

// ptyJob is the launcher's side of job control for an agent on a pty of
// its own. The user's terminal (tty) is raw while the agent runs in the
// foreground. When the agent stops (Ctrl-Z, which the agent sees as a
// byte, or SIGTSTP), the terminal is restored and the launcher's own
// process group stops with SIGTSTP, as a job stopped by the terminal
// would: the shell says "Stopped" and takes the terminal back. On
// SIGCONT in the foreground (fg) the terminal goes raw again and the
// agent is continued and told to redraw; continued in the background
// (bg) the launcher does not touch the terminal and stops again with
// SIGTTIN, as any program that needs the terminal does.
type ptyJob struct {
	tty    *os.File
	fd     int
	ptmx   *os.File
	leader *exec.Cmd // the pty's session leader (PTYLeaderCommand)

	mu    sync.Mutex
	saved *unix.Termios // the terminal's settings to restore; nil when not raw
	susp  byte          // the terminal's suspend character (VSUSP), 0 if none

	suspKey   chan struct{} // the suspend key went to the agent
	suspended bool          // the agent is stopped and the terminal handed back
	ending    bool          // a terminating signal came while suspended
	// restoreTSTP puts the runtime's SIGTSTP handler back after a stop.
	restoreTSTP func()
	lastGroup   int  // the agent's process group, last seen
	ring        bool // the program is the agent ring

	out     io.Writer   // the agent's output goes here (the terminal)
	outMu   sync.Mutex  // held by the confirm line: the agent's output waits
	confirm *confirmReq // the confirm line up, or nil (under mu)
}

// foreground reports whether the launcher's process group is the
// terminal's foreground group, or the terminal is not its controlling
// one (then there is no job control to respect).
func (j *ptyJob) foreground() bool {
	pg, err := unix.IoctlGetInt(j.fd, unix.TIOCGPGRP)
	return err != nil || pg == unix.Getpgrp()
}

// enterRaw saves the terminal's current settings (what the user's shell
// handed over, which may differ after a stop) and makes it raw. It does
// nothing in the background: setting a terminal there would stop the
// launcher with SIGTTOU, or, were SIGTTOU ignored, take the shell's
// terminal from it.
func (j *ptyJob) enterRaw() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.saved != nil || !j.foreground() {
		return nil
	}
	old, err := unix.IoctlGetTermios(j.fd, ioctlGetTermios)
	if err != nil {
		return err
	}
	if err := unix.IoctlSetTermios(j.fd, ioctlSetTermios, rawTermios(old)); err != nil {
		return err
	}
	j.saved = old
	j.susp = old.Cc[unix.VSUSP]
	return nil
}

// leaveRaw restores the saved settings, if the terminal is raw and still
// the launcher's.
func (j *ptyJob) leaveRaw() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.saved == nil || !j.foreground() {
		return
	}
	unix.IoctlSetTermios(j.fd, ioctlSetTermios, j.saved)
	j.saved = nil
}

// copyInput copies the user's keys to the agent and notes the suspend
// key going by; while the confirm line is up they go to it instead.
func (j *ptyJob) copyInput() {
	buf := make([]byte, 32<<10)
	for {
		n, err := j.tty.Read(buf)
		if n > 0 && !j.feedConfirm(buf[:n]) {
			j.mu.Lock()
			susp := j.susp
			j.mu.Unlock()
			if susp != 0 && bytes.IndexByte(buf[:n], susp) >= 0 {
				select {
				case j.suspKey <- struct{}{}:
				default:
				}
			}
			if _, werr := j.ptmx.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// agentGroup is the pty's foreground process group: the agent's.
func (j *ptyJob) agentGroup() int {
	pg, err := unix.IoctlGetInt(int(j.ptmx.Fd()), unix.TIOCGPGRP)
	if err != nil || pg <= 1 || pg == j.leader.Process.Pid {
		return 0
	}
	j.lastGroup = pg
	return pg
}

func (j *ptyJob) signalAgent(sig unix.Signal) {
	if pg := j.agentGroup(); pg > 0 {
		unix.Kill(-pg, sig)
	}
}

// agentStopped looks whether the agent stopped.
func (j *ptyJob) agentStopped() bool {
	pg := j.agentGroup()
	return pg > 0 && jobStopped(j.leader.Process.Pid, pg)
}

func (j *ptyJob) resize() {
	if ws, err := pty.GetsizeFull(j.tty); err == nil {
		pty.Setsize(j.ptmx, ws) // the kernel sends SIGWINCH to the agent if it changed
	}
}

// canStop reports whether stopping the launcher's group hands the
// terminal to someone: its parent is in the same session, in another
// group (a job-control shell). Otherwise the group may be orphaned and
// the kernel would discard the SIGTSTP; then the agent is simply
// continued, as a terminal without job control ignores Ctrl-Z.
func canStop() bool {
	ppid := unix.Getppid()
	ppg, err1 := unix.Getpgid(ppid)
	psid, err2 := unix.Getsid(ppid)
	sid, err3 := unix.Getsid(0)
	return err1 == nil && err2 == nil && err3 == nil && psid == sid && ppg != unix.Getpgrp()
}

// suspend hands the terminal back and stops the launcher's job.
func (j *ptyJob) suspend() {
	j.leaveRaw()
	if !canStop() {
		j.resume()
		return
	}
	j.suspended = true
	// SIGTSTP is caught while the agent runs (to pass it on); the stop
	// needs the default action, which os/signal cannot give back (after
	// Reset the runtime's handler stays and drops it). It is caught again
	// on SIGCONT, once the stop has happened.
	j.restoreTSTP = defaultSignal(unix.SIGTSTP)
	unix.Kill(-unix.Getpgrp(), unix.SIGTSTP)
}

// resume takes the terminal again and continues the agent, with a
// SIGWINCH so that it redraws its screen (a full-screen program does on
// a size change, and the size may really have changed meanwhile).
func (j *ptyJob) resume() {
	j.suspended = false
	j.enterRaw()
	j.resize()
	j.signalAgent(unix.SIGCONT)
	j.signalAgent(unix.SIGWINCH)
}

// continued handles SIGCONT: in the foreground the agent resumes; in the
// background the launcher stops again, by SIGTTIN, without touching the
// terminal.
func (j *ptyJob) continued() {
	if !j.suspended {
		j.signalAgent(unix.SIGCONT) // a SIGSTOP/SIGCONT pair from outside
		return
	}
	if j.ending {
		j.signalAgent(unix.SIGCONT)
		return
	}
	if j.restoreTSTP != nil {
		j.restoreTSTP()
		j.restoreTSTP = nil
	}
	if j.foreground() {
		j.resume()
		return
	}
	unix.Kill(-unix.Getpgrp(), unix.SIGTTIN)
}

// supervise waits for the leader to exit, forwarding signals and acting
// on the agent's stops, as waitProgram does for a program without a pty.
func (j *ptyJob) supervise(ctx context.Context, sigc chan os.Signal) error {
	waitc := make(chan error, 1)
	go func() { waitc <- j.leader.Wait() }()
	slow := time.NewTicker(stopPollSlow)
	defer slow.Stop()
	fast := time.NewTicker(stopPollFast)
	fast.Stop()
	defer fast.Stop()
	var fastUntil time.Time
	watch := func() { fast.Reset(stopPollFast); fastUntil = time.Now().Add(stopPollWindow) }
	check := func() {
		if !j.suspended && j.agentStopped() {
			j.suspend()
		}
	}
	ctxDone := ctx.Done()
	var kill <-chan time.Time
	for {
		select {
		case sig := <-sigc:
			switch sig {
			case unix.SIGWINCH:
				if !j.suspended {
					j.resize()
				}
			case unix.SIGTSTP:
				// From outside (the terminal is raw, so not from it):
				// the agent gets it, as it would run directly; its stop
				// is then seen like a Ctrl-Z.
				j.signalAgent(unix.SIGTSTP)
				watch()
			case unix.SIGCONT:
				j.continued()
			default:
				j.leader.Process.Signal(sig)
				if j.suspended {
					j.ending = true
					j.signalAgent(unix.SIGCONT) // a stopped agent cannot die
				}
			}
		case <-j.suspKey:
			watch()
		case <-fast.C:
			check()
			if time.Now().After(fastUntil) {
				fast.Stop()
			}
		case <-slow.C:
			check()
		case <-ctxDone:
			ctxDone = nil
			j.leader.Process.Signal(unix.SIGTERM)
			j.signalAgent(unix.SIGCONT)
			kill = time.After(KillDelay)
		case <-kill:
			j.leader.Process.Kill()
		case err := <-waitc:
			if j.ring && j.lastGroup > 0 {
				// The leader kills what is left of the ring's group; if
				// the leader itself was killed, the launcher does.
				unix.Kill(-j.lastGroup, unix.SIGKILL)
			}
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				return err
			}
			return nil
		}
	}
}

// rawTermios is t in raw mode, as cfmakeraw makes it.
func rawTermios(old *unix.Termios) *unix.Termios {
	t := *old
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cflag &^= unix.CSIZE | unix.PARENB
	t.Cflag |= unix.CS8
	t.Cc[unix.VMIN] = 1
	t.Cc[unix.VTIME] = 0
	return &t
}

// copyOutput copies the agent's output to the terminal, a read at a
// time, each written only while no confirm line is up (Confirm holds
// outMu). It ends with EIO once every copy of the pty's slave is closed.
func (j *ptyJob) copyOutput() {
	buf := make([]byte, 32<<10)
	for {
		n, err := j.ptmx.Read(buf)
		if n > 0 {
			j.outMu.Lock()
			_, werr := j.out.Write(buf[:n])
			j.outMu.Unlock()
			if werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}
