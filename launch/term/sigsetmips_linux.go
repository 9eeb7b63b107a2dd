// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux && (mips || mipsle || mips64 || mips64le)

package term

// sigsetSize is the kernel's sigset_t size (_NSIG/8) for rt_sigaction.
const sigsetSize = 16
