// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
)

// firstBuildRuns is how many new workspaces each side of a first-build
// comparison gets (the median is reported).
const firstBuildRuns = 3

// benchFirstBuild compares a new workspace's first `go build` bare and
// through `lite-sandbox run` (docs/performance.md, "First builds"): each
// run is a fresh copy in a fresh directory, so that bare compiles what
// is new to the host's caches and the sandbox starts with a new, empty
// layer (its build cache is served from the host's through
// __gocacheprog). A warm-up build first brings the host's caches to
// where a user's are: the dependencies downloaded and compiled. The
// workloads: the small program of benchCaches, and this module itself
// (`go build ./...`, from `git archive HEAD`).
func benchFirstBuild(bin, goBin string, small map[string]string) error {
	fmt.Printf("\nnew workspace, first go build: sandbox vs bare (median of %d fresh workspaces each):\n", firstBuildRuns)
	workloads := []struct {
		name  string
		setup func(dir string) error
	}{
		{"small program using golang.org/x/sys", func(dir string) error { return writeFiles(dir, small) }},
		{"lite-sandbox itself (go build ./...)", gitArchive},
	}
	for _, w := range workloads {
		bare, boxed, err := firstBuilds(bin, goBin, w.setup)
		if err != nil {
			fmt.Printf("  %-40s skipped: %v\n", w.name, err)
			continue
		}
		fmt.Printf("  %-40s bare %10s  sandbox %10s  ratio %.2fx\n", w.name, ms(bare), ms(boxed), ratio(boxed, bare))
		target(w.name+": first build within 1.5x of bare", ratio(boxed, bare) <= 1.5, fmt.Sprintf("%.2fx", ratio(boxed, bare)))
	}
	return nil
}

// firstBuilds warms the host's caches with one bare build, then times
// firstBuildRuns bare and sandboxed first builds, interleaved, each in a
// new workspace, and returns the medians.
func firstBuilds(bin, goBin string, setup func(string) error) (bare, boxed time.Duration, err error) {
	home, _ := os.UserHomeDir()
	build := func(sandboxed bool) (time.Duration, error) {
		ws, err := os.MkdirTemp("/var/tmp", "lite-sandbox-bench-first-")
		if err != nil {
			return 0, err
		}
		layer := sandbox.CacheLayerDir(home, ws)
		defer func() {
			exec.Command("chmod", "-R", "u+w", layer).Run()
			os.RemoveAll(layer)
			os.RemoveAll(ws)
		}()
		if err := setup(ws); err != nil {
			return 0, err
		}
		argv := []string{goBin, "build", "-o", os.DevNull, "./..."}
		if sandboxed {
			argv = append([]string{bin, "run", "--"}, argv...)
		}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = ws
		cmd.Env = append(os.Environ(), "LITE_SANDBOX_NO_AUDIT=1", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local",
			"GOPROXY=", "GOCACHE=", "GOCACHEPROG=", "GOMODCACHE=", "GOPATH=", "GOENV=", "XDG_CONFIG_HOME=")
		t0 := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			return 0, fmt.Errorf("%s: %v: %s", strings.Join(argv, " "), err, strings.TrimSpace(string(out)))
		}
		return time.Since(t0), nil
	}
	if _, err := build(false); err != nil {
		return 0, 0, err
	}
	var b, s []time.Duration
	for range firstBuildRuns {
		d, err := build(false)
		if err != nil {
			return 0, 0, err
		}
		b = append(b, d)
		if d, err = build(true); err != nil {
			return 0, 0, err
		}
		s = append(s, d)
	}
	return median3(b), median3(s), nil
}

func writeFiles(dir string, files map[string]string) error {
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// gitArchive puts this repository's HEAD in dir (scripts/bench runs in
// the repository).
func gitArchive(dir string) error {
	cmd := exec.Command("sh", "-c", `git archive HEAD | tar -x -C "$1"`, "sh", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git archive: %v: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}
