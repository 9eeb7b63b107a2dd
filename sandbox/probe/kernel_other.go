// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !linux

package probe

import "runtime"

// ReadKernel reports the kernel features of interest. User namespaces,
// Landlock and seccomp exist only on Linux.
func ReadKernel() Kernel {
	na := "not applicable on " + runtime.GOOS
	return Kernel{
		Release:        runtime.GOOS,
		UserNamespaces: na,
		Landlock:       na,
		Seccomp:        na,
	}
}

// AppArmorAdvice is nil: AppArmor's user-namespace switch is Linux's.
func AppArmorAdvice(Kernel, string) []string { return nil }
