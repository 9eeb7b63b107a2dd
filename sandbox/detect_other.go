// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !linux

package sandbox

import (
	"errors"

	"github.com/lite-sandbox/lite-sandbox/sandbox/probe"
)

// DetectLandlock is Linux-only.
func DetectLandlock() (Backend, error) {
	return Backend{}, errors.New("landlock is Linux-only")
}

// AppArmorAdvice is nil: AppArmor's user-namespace switch is Linux's.
func AppArmorAdvice(probe.Kernel) []string { return nil }
