// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package confine

import (
	"encoding/binary"
	"runtime"
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
)

// TestSeccompFilterDecisions runs the filter in a BPF interpreter over
// hand-made seccomp_data, so that every branch is pinned without the
// kernel: the masked ioctl compare (CVE-2019-10063), flag tests that
// ignore other namespace flags, clone3's ENOSYS, foreign architectures.
func TestSeccompFilterDecisions(t *testing.T) {
	t.Parallel()
	prog := seccompFilter(false, false, false)
	if prog == nil {
		t.Skipf("no filter for %s", runtime.GOARCH)
	}
	vm := filterVM(t, prog)
	const (
		allow  = unix.SECCOMP_RET_ALLOW
		eperm  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
		enosys = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
	)
	arch := seccompArch()
	for _, c := range []struct {
		name string
		arch uint32
		nr   uint32
		args [6]uint64
		want uint32
	}{
		{"read", arch, unix.SYS_READ, [6]uint64{}, allow},
		{"ioctl TIOCSTI", arch, unix.SYS_IOCTL, [6]uint64{0, tiocsti}, eperm},
		{"ioctl TIOCSTI with high bits", arch, unix.SYS_IOCTL, [6]uint64{0, 1<<32 | tiocsti}, eperm},
		{"ioctl TIOCLINUX", arch, unix.SYS_IOCTL, [6]uint64{0, tioclinux}, eperm},
		{"ioctl TCGETS", arch, unix.SYS_IOCTL, [6]uint64{0, unix.TCGETS}, allow},
		{"ioctl TIOCSCTTY", arch, unix.SYS_IOCTL, [6]uint64{0, unix.TIOCSCTTY}, allow},
		{"unshare user", arch, unix.SYS_UNSHARE, [6]uint64{unix.CLONE_NEWUSER | unix.CLONE_NEWNS}, eperm},
		{"unshare mount", arch, unix.SYS_UNSHARE, [6]uint64{unix.CLONE_NEWNS}, allow},
		{"clone user", arch, unix.SYS_CLONE, [6]uint64{unix.CLONE_NEWUSER | uint64(unix.SIGCHLD)}, eperm},
		{"clone thread", arch, unix.SYS_CLONE, [6]uint64{unix.CLONE_VM | unix.CLONE_THREAD}, allow},
		{"clone3", arch, unix.SYS_CLONE3, [6]uint64{}, enosys},
		{"ptrace", arch, unix.SYS_PTRACE, [6]uint64{}, eperm},
		{"process_vm_readv", arch, unix.SYS_PROCESS_VM_READV, [6]uint64{}, eperm},
		{"process_vm_writev", arch, unix.SYS_PROCESS_VM_WRITEV, [6]uint64{}, eperm},
		{"io_uring_setup", arch, unix.SYS_IO_URING_SETUP, [6]uint64{}, eperm},
		{"keyctl", arch, unix.SYS_KEYCTL, [6]uint64{}, eperm},
		{"foreign architecture", 0x40000003 /* i386 */, 1, [6]uint64{}, eperm},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := vm.Run(seccompData(c.nr, c.arch, c.args))
			if err != nil {
				t.Fatal(err)
			}
			if uint32(got) != c.want {
				t.Errorf("got %#x, want %#x", got, c.want)
			}
		})
	}
	if runtime.GOARCH == "amd64" {
		data := make([]byte, 64)
		binary.BigEndian.PutUint32(data[0:], 0x40000000|unix.SYS_UNSHARE) // x32
		binary.BigEndian.PutUint32(data[4:], arch)
		if got, _ := vm.Run(data); uint32(got) != eperm {
			t.Errorf("x32 system call: got %#x, want EPERM", got)
		}
	}
}

// filterVM loads the filter into a BPF interpreter.
func filterVM(t *testing.T, prog []unix.SockFilter) *bpf.VM {
	t.Helper()
	raw := make([]bpf.RawInstruction, len(prog))
	for i, f := range prog {
		raw[i] = bpf.RawInstruction{Op: f.Code, Jt: f.Jt, Jf: f.Jf, K: f.K}
	}
	insns, ok := bpf.Disassemble(raw)
	if !ok {
		t.Fatal("filter does not disassemble")
	}
	vm, err := bpf.NewVM(insns)
	if err != nil {
		t.Fatal(err)
	}
	return vm
}

// seccompData is struct seccomp_data for one system call, as the VM
// must see it: the VM loads words big-endian, the kernel natively, so
// each word is swapped to what the kernel's little-endian loads see.
func seccompData(nr, arch uint32, args [6]uint64) []byte {
	data := make([]byte, 64)
	binary.LittleEndian.PutUint32(data[0:], nr)
	binary.LittleEndian.PutUint32(data[4:], arch)
	for i, a := range args {
		binary.LittleEndian.PutUint64(data[16+8*i:], a)
	}
	swapped := make([]byte, len(data))
	for i := 0; i < len(data); i += 4 {
		binary.BigEndian.PutUint32(swapped[i:], binary.LittleEndian.Uint32(data[i:]))
	}
	return swapped
}

// TestSeccompNoUnix: under the Landlock backend below ABI 9 the filter
// refuses socket(AF_UNIX) (the host's sockets are reachable by path
// there, classes 16 to 18 and 49), and System V IPC (class 25); other
// families and socketpair pass, and the bwrap backend's filter lets
// them through (the control). The agent ring's filter sends only the
// judge's socket to the launcher.
func TestSeccompNoUnix(t *testing.T) {
	t.Parallel()
	if seccompFilter(true, true, true) == nil {
		t.Skipf("no filter for %s", runtime.GOARCH)
	}
	arch := seccompArch()
	eperm := unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	const judge = contract.JudgeProto
	for _, c := range []struct {
		name          string
		noUnix, ring  bool
		nr            uint32
		family, proto uint64
		want          uint32
	}{
		{"socket AF_UNIX", true, false, unix.SYS_SOCKET, unix.AF_UNIX, 0, eperm},
		{"socket AF_INET", true, false, unix.SYS_SOCKET, unix.AF_INET, 0, unix.SECCOMP_RET_ALLOW},
		{"socketpair AF_UNIX", true, false, unix.SYS_SOCKETPAIR, unix.AF_UNIX, 0, unix.SECCOMP_RET_ALLOW},
		{"bwrap: socket AF_UNIX", false, false, unix.SYS_SOCKET, unix.AF_UNIX, 0, unix.SECCOMP_RET_ALLOW},
		{"shmget", true, false, unix.SYS_SHMGET, 0, 0, eperm},
		{"shmat", true, false, unix.SYS_SHMAT, 0, 0, eperm},
		{"msgget", true, false, unix.SYS_MSGGET, 0, 0, eperm},
		{"semget", true, false, unix.SYS_SEMGET, 0, 0, eperm},
		{"bwrap: shmget", false, false, unix.SYS_SHMGET, 0, 0, unix.SECCOMP_RET_ALLOW},
		// The agent ring's judge connection goes to the launcher; any
		// other AF_UNIX socket is refused as before, in the ring and in
		// its commands (which have no listener).
		{"ring: judge socket", true, true, unix.SYS_SOCKET, unix.AF_UNIX, judge, unix.SECCOMP_RET_USER_NOTIF},
		{"ring: socket AF_UNIX", true, true, unix.SYS_SOCKET, unix.AF_UNIX, 0, eperm},
		{"ring: socket AF_INET", true, true, unix.SYS_SOCKET, unix.AF_INET, judge, unix.SECCOMP_RET_ALLOW},
		{"ring ABI 9: socket AF_UNIX", false, true, unix.SYS_SOCKET, unix.AF_UNIX, 0, unix.SECCOMP_RET_ALLOW},
		{"ring ABI 9: judge socket", false, true, unix.SYS_SOCKET, unix.AF_UNIX, judge, unix.SECCOMP_RET_USER_NOTIF},
		{"command: judge socket", true, false, unix.SYS_SOCKET, unix.AF_UNIX, judge, eperm},
		{"ring: shmget", true, true, unix.SYS_SHMGET, 0, 0, eperm},
	} {
		got, err := filterVM(t, seccompFilter(c.noUnix, c.noUnix || c.ring, c.ring)).Run(seccompData(c.nr, arch, [6]uint64{c.family, unix.SOCK_STREAM, c.proto}))
		if err != nil {
			t.Fatal(err)
		}
		if uint32(got) != c.want {
			t.Errorf("%s: got %#x, want %#x", c.name, got, c.want)
		}
	}
}
