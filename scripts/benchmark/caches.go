// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
)

// benchCaches measures what the per-workspace cache layers cost: `go
// build` of a small program that needs a module (golang.org/x/sys)
// through `lite-sandbox run`, in a new workspace (the layer is cold:
// the module is extracted from the host's download cache and everything
// is compiled), again (warm layer), and with the host's caches shared
// read-write (shared_caches, the opt-in). It uses the real home's Go
// caches and removes the workspace's layer afterwards.
// smallProgram is the small program of the cache rows: one dependency,
// golang.org/x/sys.
var smallProgram = map[string]string{
	"go.mod":  "module example.com/bench\n\ngo 1.21\n\nrequire golang.org/x/sys v0.50.0\n",
	"go.sum":  "golang.org/x/sys v0.50.0 h1:dkKZEFTEKaLr1sjhs0WiKqoi8Jj5nHbS3Njmx1UoMJs=\ngolang.org/x/sys v0.50.0/go.mod h1:hNLxWAXmnKAxqDtdwIYC4bM9oQPEecfsnNMuSxOs3og=\n",
	"main.go": "package main\n\nimport (\n\t\"fmt\"\n\n\t\"golang.org/x/sys/unix\"\n)\n\nfunc main() { fmt.Println(unix.Getpid()) }\n",
}

func benchCaches(bin string) error {
	goBin, err := exec.LookPath("go")
	if err != nil {
		fmt.Println("\ncache layers: skipped (no go on PATH)")
		return nil
	}
	home, _ := os.UserHomeDir()
	ws, err := os.MkdirTemp("/var/tmp", "lite-sandbox-bench-cache-")
	if err != nil {
		return err
	}
	layer := sandbox.CacheLayerDir(home, ws)
	defer func() {
		exec.Command("chmod", "-R", "u+w", layer).Run()
		os.RemoveAll(layer)
		os.RemoveAll(ws)
	}()
	files := smallProgram
	if err := writeFiles(ws, files); err != nil {
		return err
	}
	shared := filepath.Join(ws, "..", filepath.Base(ws)+".toml")
	if err := os.WriteFile(shared, []byte("[sandbox]\nshared_caches = [\"~/go/pkg/mod\", \"~/.cache/go-build\"]\n"), 0o644); err != nil {
		return err
	}
	defer os.Remove(shared)
	build := func(config string) (time.Duration, error) {
		args := []string{"run"}
		if config != "" {
			args = append(args, "--config", config)
		}
		cmd := exec.Command(bin, append(args, "--", goBin, "build", "-o", "/dev/null", ".")...)
		cmd.Dir = ws
		cmd.Env = append(os.Environ(), "LITE_SANDBOX_NO_AUDIT=1", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local",
			"GOPROXY=", "GOCACHE=", "GOMODCACHE=", "GOPATH=", "GOENV=", "XDG_CONFIG_HOME=")
		t0 := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			return 0, fmt.Errorf("cache bench: %v: %s", err, strings.TrimSpace(string(out)))
		}
		return time.Since(t0), nil
	}
	cold, err := build("")
	if err != nil {
		return err
	}
	var warm, sh []time.Duration
	for range 3 {
		w, err := build("")
		if err != nil {
			return err
		}
		s, err := build(shared)
		if err != nil {
			return err
		}
		warm, sh = append(warm, w), append(sh, s)
	}
	fmt.Printf("\ngo build of a small program using golang.org/x/sys, through lite-sandbox run:\n")
	fmt.Printf("  %-52s %10s\n", "cold workspace layer (first build in a workspace)", ms(cold))
	fmt.Printf("  %-52s %10s\n", "warm workspace layer (median of 3)", ms(median3(warm)))
	fmt.Printf("  %-52s %10s\n", "host caches shared read-write (opt-in, median of 3)", ms(median3(sh)))
	return benchFirstBuild(bin, goBin, files)
}

func median3(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return ds[len(ds)/2]
}
