// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package agents

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

// TestConfigEnv: the variable names a configuration gives its providers'
// keys, never a key itself or another value.
func TestConfigEnv(t *testing.T) {
	f := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(f, []byte("[model_providers.mock]\nenv_key = \"MOCK_API_KEY\"\n[x]\nenv_key = \"sk-literal-key\"\nname = \"OTHER\"\n"), 0o600)
	re := regexp.MustCompile(`(?m)^\s*env_key\s*=\s*"([^"]+)"`)
	if got := ConfigEnv(re, f, filepath.Join(t.TempDir(), "missing")); !slices.Equal(got, []string{"MOCK_API_KEY"}) {
		t.Errorf("ConfigEnv = %v", got)
	}
}
