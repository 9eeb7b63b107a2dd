// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"errors"
	"net"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
)

// The kernel's structures of seccomp user notification
// (include/uapi/linux/seccomp.h), which x/sys/unix does not declare.
type (
	seccompData struct {
		Nr   int32
		Arch uint32
		IP   uint64
		Args [6]uint64
	}
	seccompNotif struct {
		ID    uint64
		Pid   uint32
		Flags uint32
		Data  seccompData
	}
	seccompNotifResp struct {
		ID    uint64
		Val   int64
		Error int32
		Flags uint32
	}
	seccompNotifAddfd struct {
		ID         uint64
		Flags      uint32
		Srcfd      uint32
		Newfd      uint32
		NewfdFlags uint32
	}
)

// notifyPoll bounds each wait for a notification, so that a stopped
// session's supervisor returns.
const notifyPoll = 500 // milliseconds

// superviseJudge answers the Landlock agent ring's
// socket(AF_UNIX, SOCK_STREAM, contract.JudgeProto) (its filter's user
// notifications, on listener) with a new connection to judgeSock, put
// into the calling process as the call's result: how a shell whose
// parent closed the broker's descriptor (Claude Code's native build,
// Python's subprocess) reaches the judge, with no socket of its own and
// no copy from another process (which Yama and Docker's seccomp profile
// refuse). Any other notification is refused (EPERM). It returns when
// every ring process is gone or stopped is closed, and closes listener.
func superviseJudge(listener int, judgeSock string, stopped <-chan struct{}) {
	defer unix.Close(listener)
	for {
		select {
		case <-stopped:
			return
		default:
		}
		pfd := []unix.PollFd{{Fd: int32(listener), Events: unix.POLLIN}}
		n, err := unix.Poll(pfd, notifyPoll)
		if errors.Is(err, unix.EINTR) || (err == nil && n == 0) {
			continue
		}
		if err != nil || pfd[0].Revents&(unix.POLLHUP|unix.POLLERR|unix.POLLNVAL) != 0 {
			return
		}
		var req seccompNotif
		if err := notifIoctl(listener, unix.SECCOMP_IOCTL_NOTIF_RECV, unsafe.Pointer(&req)); err != nil {
			if errors.Is(err, unix.EINTR) || errors.Is(err, unix.ENOENT) {
				continue // the caller went away meanwhile
			}
			return
		}
		answerJudge(listener, &req, judgeSock)
	}
}

// answerJudge answers one notification: a judge connection for the
// judge's socket call, EPERM for anything else.
func answerJudge(listener int, req *seccompNotif, judgeSock string) {
	a := req.Data.Args
	typ := a[1] &^ (unix.SOCK_CLOEXEC | unix.SOCK_NONBLOCK)
	if req.Data.Nr != unix.SYS_SOCKET || a[0] != unix.AF_UNIX || a[2] != contract.JudgeProto || typ != unix.SOCK_STREAM {
		refuse(listener, req.ID, unix.EPERM)
		return
	}
	c, err := net.Dial("unix", judgeSock)
	var f *os.File
	if err == nil {
		f, err = c.(*net.UnixConn).File()
		c.Close()
	}
	if err != nil {
		refuse(listener, req.ID, unix.ECONNREFUSED)
		return
	}
	defer f.Close()
	if a[1]&unix.SOCK_NONBLOCK != 0 {
		unix.SetNonblock(int(f.Fd()), true)
	}
	add := seccompNotifAddfd{ID: req.ID, Flags: unix.SECCOMP_ADDFD_FLAG_SEND, Srcfd: uint32(f.Fd())}
	if a[1]&unix.SOCK_CLOEXEC != 0 {
		add.NewfdFlags = unix.O_CLOEXEC
	}
	// With FLAG_SEND (Linux 5.14) the descriptor is added and the call
	// answered with its number in one step; before it, in two.
	err = notifIoctl(listener, unix.SECCOMP_IOCTL_NOTIF_ADDFD, unsafe.Pointer(&add))
	if errors.Is(err, unix.EINVAL) {
		add.Flags = 0
		fd, errno := notifIoctlRet(listener, unix.SECCOMP_IOCTL_NOTIF_ADDFD, unsafe.Pointer(&add))
		if errno != nil {
			refuse(listener, req.ID, unix.ECONNREFUSED)
			return
		}
		resp := seccompNotifResp{ID: req.ID, Val: int64(fd)}
		notifIoctl(listener, unix.SECCOMP_IOCTL_NOTIF_SEND, unsafe.Pointer(&resp))
	}
}

// refuse answers notification id with errno e.
func refuse(listener int, id uint64, e unix.Errno) {
	resp := seccompNotifResp{ID: id, Error: -int32(e)}
	notifIoctl(listener, unix.SECCOMP_IOCTL_NOTIF_SEND, unsafe.Pointer(&resp))
}

func notifIoctl(fd int, req uint, arg unsafe.Pointer) error {
	_, err := notifIoctlRet(fd, req, arg)
	return err
}

func notifIoctlRet(fd int, req uint, arg unsafe.Pointer) (int, error) {
	r, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(req), uintptr(arg))
	if errno != 0 {
		return -1, errno
	}
	return int(r), nil
}
