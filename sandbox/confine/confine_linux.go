// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package confine

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/lite-sandbox/lite-sandbox/internal/pathlook"

	"golang.org/x/sys/unix"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/internal/exit"
)

// Values the filter compares. The ioctl request is compared on its low
// 32 bits only, as the kernel does (the upper half of the register is
// ignored for an unsigned int), so 0x100005412 cannot slip past
// (CVE-2019-10063, escape class 21).
const (
	tiocsti   = 0x5412
	tioclinux = 0x541C
)

// seccompArch returns the audit architecture of the running binary, or 0
// when the filter does not support it.
func seccompArch() uint32 {
	switch runtime.GOARCH {
	case "amd64":
		return unix.AUDIT_ARCH_X86_64
	case "arm64":
		return unix.AUDIT_ARCH_AARCH64
	}
	return 0
}

const (
	ldAbs  = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
	jeq    = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
	jge    = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
	jset   = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
	ret    = unix.BPF_RET | unix.BPF_K
	allow  = unix.SECCOMP_RET_ALLOW
	eperm  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	enosys = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
	notify = unix.SECCOMP_RET_USER_NOTIF
	// struct seccomp_data: nr at 0, arch at 4, args[i] at 16+8i
	// (low half first on these little-endian architectures).
	offNr   = 0
	offArch = 4
	offArg0 = 16
	offArg1 = 24
	offArg2 = 32
)

func st(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }

func jmp(code uint16, k uint32, jt, jf uint8) unix.SockFilter {
	return unix.SockFilter{Code: code, K: k, Jt: jt, Jf: jf}
}

// socketRule is seccompFilter's rule for socket(2): with noUnix
// AF_UNIX is refused; with judge socket(AF_UNIX, _, contract.JudgeProto)
// goes to the launcher.
func socketRule(noUnix, judge bool) []unix.SockFilter {
	unixVerdict := uint32(allow)
	if noUnix {
		unixVerdict = eperm
	}
	var proto uint32 = unix.AF_UNIX + 1 // no family's number: never matches
	if judge {
		proto = contract.JudgeProto
	}
	return []unix.SockFilter{
		jmp(jeq, unix.SYS_SOCKET, 0, 7),
		st(ldAbs, offArg0),
		jmp(jeq, unix.AF_UNIX, 0, 4),
		st(ldAbs, offArg2),
		jmp(jeq, proto, 0, 1),
		st(ret, notify),
		st(ret, unixVerdict),
		st(ret, allow),
	}
}

// seccompFilter returns the BPF program of the filter for this
// architecture, or nil when unsupported. It returns EPERM for ioctl
// TIOCSTI and TIOCLINUX (keystroke injection, class 21), for unshare and
// clone with CLONE_NEWUSER (nested user namespaces, class 24: with one a
// command regains every capability over its own mounts), for ptrace and
// process_vm_readv/writev (class 22), for io_uring (class 26: it bypasses
// syscall filters) and for the kernel keyring (shared by every process of
// the user); clone3 gets ENOSYS, since its flags live in memory the
// filter cannot read, and libc falls back to clone. Any other
// architecture's system calls (32-bit compatibility, x32) are refused.
//
// With noUnix (the Landlock backend on a kernel whose Landlock cannot
// restrict connecting to Unix sockets by path, ABI < 9) socket(AF_UNIX)
// is refused too: without a mount namespace every socket of the host
// is reachable by its path (the user's D-Bus and systemd manager, which
// run commands outside any sandbox, class 17; ssh-agent, class 16; the
// docker socket, class 18; the session's approval socket, class 49).
// socketpair stays allowed: it connects to nothing. With noSysV (the
// Landlock backend: no IPC namespace) System V shared memory, message
// queues and semaphores are refused: they are the host's (class 25).
// With judge (the Landlock agent ring's program)
// socket(AF_UNIX, _, contract.JudgeProto) goes to the launcher instead
// (SECCOMP_RET_USER_NOTIF), which answers with a connection to the
// session's judge and nothing else ([sendListener]).
func seccompFilter(noUnix, noSysV, judge bool) []unix.SockFilter {
	arch := seccompArch()
	if arch == 0 {
		return nil
	}
	p := []unix.SockFilter{
		st(ldAbs, offArch),
		jmp(jeq, arch, 1, 0),
		st(ret, eperm),
		st(ldAbs, offNr),
	}
	if runtime.GOARCH == "amd64" {
		// x32 system calls carry bit 30 and share the arch value.
		p = append(p, jmp(jge, 0x40000000, 0, 1), st(ret, eperm))
	}
	// ioctl: look at the request.
	p = append(p,
		jmp(jeq, unix.SYS_IOCTL, 0, 5),
		st(ldAbs, offArg1),
		jmp(jeq, tiocsti, 1, 0),
		jmp(jeq, tioclinux, 0, 1),
		st(ret, eperm),
		st(ret, allow),
	)
	// unshare and clone: look at the flags (the first argument on both
	// architectures).
	for _, nr := range []uint32{unix.SYS_UNSHARE, unix.SYS_CLONE} {
		p = append(p,
			jmp(jeq, nr, 0, 4),
			st(ldAbs, offArg0),
			jmp(jset, unix.CLONE_NEWUSER, 0, 1),
			st(ret, eperm),
			st(ret, allow),
		)
	}
	p = append(p, jmp(jeq, unix.SYS_CLONE3, 0, 1), st(ret, enosys))
	if noUnix || judge {
		p = append(p, socketRule(noUnix, judge)...)
	}
	refused := []uint32{
		unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV,
		unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
		unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY,
	}
	if noSysV {
		refused = append(refused, unix.SYS_SHMGET, unix.SYS_SHMAT, unix.SYS_SHMCTL,
			unix.SYS_MSGGET, unix.SYS_MSGSND, unix.SYS_MSGRCV, unix.SYS_MSGCTL,
			unix.SYS_SEMGET, unix.SYS_SEMOP, unix.SYS_SEMTIMEDOP, unix.SYS_SEMCTL)
	}
	for _, nr := range refused {
		p = append(p, jmp(jeq, nr, 0, 1), st(ret, eperm))
	}
	return append(p, st(ret, allow))
}

// confine applies the in-sandbox confinement to the calling thread (and
// to what it executes next): no_new_privs, a Landlock domain scoping
// abstract Unix sockets and signals to the sandbox (escape classes 17,
// 19, 22; Landlock ABI 6, Linux 6.12), and the seccomp filter. The
// caller must hold its OS thread (runtime.LockOSThread) until it execs.
// A kernel without Landlock scopes is not an error (doctor says so); a
// filter that cannot be installed is.
//
// With ll (the Landlock backend, #28) the Landlock domain is the whole
// sandbox: its filesystem and network rules and the scopes, in one
// ruleset.
func confine(ll *Landlock) (Confinement, error) {
	c := Confinement{}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return c, fmt.Errorf("confine: prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	c.LandlockABI, c.LandlockWhy = landlockABI()
	if ll != nil {
		// bwrap drops every capability; here the command would keep
		// root's (escape classes 7, 22, 52).
		if err := dropCapabilities(); err != nil {
			return c, err
		}
		abi, err := restrictLandlock(ll)
		if err != nil {
			return c, err
		}
		c.Scoped = abi >= 6
	} else if c.LandlockABI >= 6 {
		attr := unix.LandlockRulesetAttr{Scoped: unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | unix.LANDLOCK_SCOPE_SIGNAL}
		// The first three fields are the ABI 6 struct.
		fd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), 24, 0)
		if errno != 0 {
			return c, fmt.Errorf("confine: landlock_create_ruleset: %w", errno)
		}
		_, _, errno = unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0)
		unix.Close(int(fd))
		if errno != 0 {
			return c, fmt.Errorf("confine: landlock_restrict_self: %w", errno)
		}
		c.Scoped = true
	} else if c.LandlockABI > 0 {
		c.LandlockWhy = fmt.Sprintf("Landlock ABI %d has no scopes (ABI 6, Linux 6.12, needed)", c.LandlockABI)
	}
	judge := ll != nil && ll.Broker
	filter := seccompFilter(ll != nil && c.LandlockABI < landlockUnixABI, ll != nil, judge)
	if filter == nil {
		if judge {
			return c, errors.New("confine: the agent ring's filter: no filter for " + runtime.GOARCH)
		}
		c.SeccompWhy = "no filter for " + runtime.GOARCH
		return c, nil
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	var flags uintptr
	if judge {
		flags = unix.SECCOMP_FILTER_FLAG_NEW_LISTENER
	}
	listener, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, flags, uintptr(unsafe.Pointer(&prog)))
	if errno != 0 {
		return c, fmt.Errorf("confine: seccomp: %w", errno)
	}
	c.Seccomp = true
	if judge {
		if err := sendListener(int(listener)); err != nil {
			return c, err
		}
	}
	return c, nil
}

// sendListener passes the agent ring's filter's listener to the
// launcher over the judge's broker (contract.EnvJudgeFD, inherited from
// it), which answers the ring's socket(AF_UNIX, SOCK_STREAM,
// contract.JudgeProto) with a connection to the session's judge
// (launch's judgeBroker). The launcher takes only the first listener
// sent, this one, before any ring process runs.
func sendListener(listener int) error {
	defer unix.Close(listener)
	fd, err := strconv.Atoi(os.Getenv(contract.EnvJudgeFD))
	if err != nil || fd < 3 {
		return fmt.Errorf("confine: the agent ring's filter: %s is not a descriptor", contract.EnvJudgeFD)
	}
	if err := unix.Sendmsg(fd, []byte{'l'}, unix.UnixRights(listener), nil, 0); err != nil {
		return fmt.Errorf("confine: the agent ring's filter: passing its listener to the launcher: %w", err)
	}
	return nil
}

// Probe says what [Exec] would apply here, without
// applying anything.
func Probe() Confinement {
	c := Confinement{}
	c.LandlockABI, c.LandlockWhy = landlockABI()
	switch {
	case c.LandlockABI >= 6:
		c.Scoped = true
	case c.LandlockABI > 0:
		c.LandlockWhy = fmt.Sprintf("Landlock ABI %d has no scopes (ABI 6, Linux 6.12, needed)", c.LandlockABI)
	}
	if seccompFilter(false, false, false) == nil {
		c.SeccompWhy = "no filter for " + runtime.GOARCH
		return c
	}
	if _, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0); errors.Is(err, unix.EINVAL) {
		c.SeccompWhy = "kernel built without seccomp"
		return c
	}
	c.Seccomp = true
	return c
}

func landlockABI() (int, string) {
	v, errno := LandlockVersion()
	if errno != 0 {
		return 0, "Landlock unavailable: " + errno.Error()
	}
	return v, ""
}

// Exec is `lite-sandbox __confine -- PROGRAM ARGS...`: it applies
// confine and replaces the process with the program, looked up in
// $PATH like a shell would. It returns only on error, with the status a
// shell would use (126 or 127 for a program that cannot run, 71 when the
// confinement cannot be applied: fail closed).
func Exec(argv []string, env []string) (int, error) {
	return run(nil, argv, env)
}

// Run is [Exec] for what follows [Command] (see [ParseArgs]): with
// `--landlock JSON` the Landlock backend's whole sandbox is applied, and
// TMPDIR set to its temp directory.
func Run(args []string, env []string) (int, error) {
	ll, argv, err := ParseArgs(args)
	if err != nil {
		return exit.Usage, err
	}
	if ll != nil && ll.Tmpdir != "" {
		env = append(slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
			return strings.HasPrefix(kv, "TMPDIR=") || strings.HasPrefix(kv, EnvTmpdir+"=")
		}), "TMPDIR="+ll.Tmpdir, EnvTmpdir+"="+ll.Tmpdir)
	}
	return run(ll, argv, env)
}

func run(ll *Landlock, argv []string, env []string) (int, error) {
	if len(argv) == 0 {
		return exit.Usage, errors.New("confine: no program")
	}
	// The Landlock domain and the filter belong to this thread; execve
	// from it hands them to the program.
	runtime.LockOSThread()
	if _, err := confine(ll); err != nil {
		return exit.Sandbox, err
	}
	// A program found but not executable is 127 here too, as it always
	// was at this step; the worker's lookup tells it apart (126).
	path, err := pathlook.Find(argv[0], env, "")
	if err != nil {
		return exit.NotFound, errors.New(pathlook.NotFound(argv))
	}
	err = unix.Exec(path, argv, env)
	if errors.Is(err, unix.ENOENT) {
		return exit.NotFound, fmt.Errorf("%s: %w", argv[0], err)
	}
	return exit.NotExecutable, fmt.Errorf("%s: %w", argv[0], err)
}

// LandlockVersion asks the kernel for its Landlock ABI version: the one
// Landlock probe, for doctor's kernel report and for the confinement.
func LandlockVersion() (int, unix.Errno) {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0, errno
	}
	return int(v), 0
}
