// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lite-sandbox/lite-sandbox/internal/cachedir"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
	"github.com/lite-sandbox/lite-sandbox/shims/validator"
)

// newValidator is [validator.New] that remembers, per policy and per
// lite-sandbox binary, that the rules' examples passed: checking them
// costs about half a millisecond, and without a session every command
// loads the policy anew (docs/performance.md). A stamp only skips the
// self-check of the rules; the rules themselves are compiled and applied
// every time, so a forged stamp changes no decision.
func newValidator(p *policy.Policy, env validator.Env) (*validator.Validator, error) {
	stamp := examplesStamp(p)
	if stamp != "" {
		if _, err := os.Stat(stamp); err == nil {
			return validator.NewChecked(p, env)
		}
	}
	v, err := validator.New(p, env)
	if err == nil && stamp != "" {
		if os.MkdirAll(filepath.Dir(stamp), 0o700) == nil {
			os.WriteFile(stamp, nil, 0o600)
		}
	}
	return v, err
}

// examplesStamp is the file that says p's examples passed with this
// binary, or "" when that cannot be told.
func examplesStamp(p *policy.Policy) string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	data, err := json.Marshal(p)
	if err != nil {
		return ""
	}
	dir := cachedir.Dir()
	if dir == "" {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%d\x00", exe, fi.Size(), fi.ModTime().UnixNano())
	h.Write(data)
	return filepath.Join(dir, "checked", hex.EncodeToString(h.Sum(nil))[:32])
}
