// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// dockerSeccompArg, as this test binary's first argument, makes it
// apply what Docker's default seccomp profile refuses to a container
// without CAP_SYS_PTRACE among the system calls the Landlock backend
// could use (kcmp, pidfd_getfd, process_madvise: EPERM), then execute
// the rest of its arguments: the simulated container (containerArgv)
// is then a default container in that respect too (#28).
const dockerSeccompArg = "__e2e-docker-seccomp"

// containerArgv is the argv that runs args in the simulated container:
// a user namespace of the test's own with no further user namespaces
// and no capabilities (containerScript), under Docker's refusals.
func containerArgv(args ...string) []string {
	return append([]string{"unshare", "-U", "-c", "--keep-caps", "sh", "-c", containerScript, "sh", probeBinary, dockerSeccompArg}, args...)
}

// dockerSeccomp is the probe's side of dockerSeccompArg.
func dockerSeccomp(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "docker-seccomp: no program")
		return 2
	}
	runtime.LockOSThread()
	const (
		ldNr  = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq   = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		ret   = unix.BPF_RET | unix.BPF_K
		eperm = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	)
	prog := []unix.SockFilter{{Code: ldNr, K: 0}}
	for _, nr := range []uint32{unix.SYS_KCMP, unix.SYS_PIDFD_GETFD, unix.SYS_PROCESS_MADVISE} {
		prog = append(prog, unix.SockFilter{Code: jeq, K: nr, Jt: 0, Jf: 1}, unix.SockFilter{Code: ret, K: eperm})
	}
	prog = append(prog, unix.SockFilter{Code: ret, K: unix.SECCOMP_RET_ALLOW})
	fp := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		fmt.Fprintln(os.Stderr, "docker-seccomp:", err)
		return 2
	}
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&fp))); errno != 0 {
		fmt.Fprintln(os.Stderr, "docker-seccomp:", errno)
		return 2
	}
	path, err := exec.LookPath(args[0])
	if err == nil {
		err = syscall.Exec(path, args, os.Environ())
	}
	fmt.Fprintln(os.Stderr, "docker-seccomp:", err)
	return 127
}
