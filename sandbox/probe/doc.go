// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package probe reads what the host offers a sandbox, for `lite-sandbox
// doctor`: the kernel's user namespaces, Landlock ABI and seccomp
// ([ReadKernel]), the signs of a container ([ReadContainer]) and, where
// AppArmor restricts user namespaces, the profile that lets bwrap make
// them ([AppArmorFix]). It changes nothing on the host. Choosing and
// caching the backend is the sandbox package's (sandbox.Probe);
// docs/container.md and docs/limits.md say what each answer means.
package probe
