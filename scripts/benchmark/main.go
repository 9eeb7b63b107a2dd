// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Command benchmark measures what lite-sandbox costs per command, side by
// side in one run, and prints medians, p95s and ratios. Run it through
// scripts/bench, which builds the binary first. It reports; it never
// fails on a number.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/lite-sandbox/lite-sandbox/launch"
	"github.com/lite-sandbox/lite-sandbox/launch/contract"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

func main() {
	bin := flag.String("bin", "", "the lite-sandbox binary to measure (required)")
	noop := flag.String("noop", "", "an empty Go program, timed as the floor of a Go shim (optional)")
	n := flag.Int("n", 200, "runs per setup")
	files := flag.Int("files", 20000, "files in the large workspace")
	size := flag.Int64("bytes", 1<<30, "bytes of output for the throughput test")
	flag.Parse()
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "benchmark: -bin is required (use scripts/bench)")
		os.Exit(2)
	}
	if err := run(*bin, *noop, *n, *files, *size); err != nil {
		fmt.Fprintln(os.Stderr, "benchmark:", err)
		os.Exit(1)
	}
}

type setup struct {
	name string
	cmd  func() *exec.Cmd
	d    []time.Duration
}

func run(bin, noop string, n, nfiles int, size int64) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	base, err := os.MkdirTemp("/var/tmp", "lite-sandbox-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(base)
	home := filepath.Join(base, "home")
	small := filepath.Join(home, "small")
	large := filepath.Join(home, "large")
	for _, d := range []string{small, large} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	for i := range nfiles {
		dir := filepath.Join(large, fmt.Sprintf("d%03d", i/200))
		os.MkdirAll(dir, 0o755)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.go", i)), []byte("package x\n"), 0o644); err != nil {
			return err
		}
	}

	b, err := sandbox.Detect()
	if err != nil {
		return err
	}
	pol := policy.Default()
	bash := "/bin/bash"

	// One fresh bwrap per command, with the seed's (default) policy.
	spec, err := pol.SandboxSpec(small, home, small)
	if err != nil {
		return err
	}
	freshPrep, err := sandbox.Prepare(b, spec, []string{bash, "--noprofile", "--norc", "-c", "true"})
	if err != nil {
		return err
	}
	defer freshPrep.Done()
	bwPath, bwArgs := freshPrep.Path, freshPrep.Args

	sessions := map[string]*launch.Session{}
	for name, ws := range map[string]string{"small": small, "large": large} {
		spec, err := pol.SandboxSpec(ws, home, "")
		if err != nil {
			return err
		}
		frozen, _ := pol.Marshal()
		s, err := launch.Open(context.Background(), launch.Options{
			Spec: spec, Backend: b, Exe: bin, PolicyTOML: frozen,
			Meta:        contract.Meta{Workspace: ws, Home: home, Mode: "on"},
			RuntimeRoot: filepath.Join(base, "run"),
		})
		if err != nil {
			return err
		}
		defer s.Close()
		sessions[name] = s
	}
	shimCmd := func(ws string, s *launch.Session, script string) *exec.Cmd {
		c := exec.Command(filepath.Join(s.Dir, contract.ShimPath), "-c", script)
		c.Dir = ws
		c.Env = append(os.Environ(), contract.EnvSession+"="+s.Dir, "HOME="+home)
		return c
	}
	perCmdShim := func() *exec.Cmd {
		c := exec.Command(bin, "shim", "-c", "true")
		c.Dir = small
		c.Env = append(os.Environ(), "LITE_SANDBOX_WORKSPACE="+small, "LITE_SANDBOX_MODE=on", "HOME="+home)
		return c
	}

	setups := []*setup{
		{name: "bare bash -c true", cmd: func() *exec.Cmd { return exec.Command(bash, "--noprofile", "--norc", "-c", "true") }},
		{name: "fresh bwrap per command", cmd: func() *exec.Cmd { return &exec.Cmd{Path: bwPath, Args: bwArgs, Dir: small} }},
		{name: "shim, fresh bwrap (no session)", cmd: perCmdShim},
		{name: "shim via session worker", cmd: func() *exec.Cmd { return shimCmd(small, sessions["small"], "true") }},
		{name: "shim via session, 20k-file workspace", cmd: func() *exec.Cmd { return shimCmd(large, sessions["large"], "true") }},
	}
	if noop != "" {
		setups = append(setups, &setup{name: "empty Go program (floor of a Go shim)", cmd: func() *exec.Cmd { return exec.Command(noop) }})
	}
	// Warm up, then interleave so that load changes hit every setup alike.
	for _, s := range setups {
		for range 5 {
			if err := s.cmd().Run(); err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
		}
	}
	for range n {
		for _, s := range setups {
			c := s.cmd()
			t0 := time.Now()
			if err := c.Run(); err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			s.d = append(s.d, time.Since(t0))
		}
	}

	fmt.Printf("lite-sandbox benchmark: %s, %d cores, %s, %s; %d runs per setup\n", kernel(), runtime.NumCPU(), b, runtime.Version(), n)
	fmt.Printf("\n%-40s %10s %10s %12s %12s\n", "latency of one command", "median", "p95", "added p50", "added p95")
	bare := setups[0]
	for _, s := range setups {
		fmt.Printf("%-40s %10s %10s %12s %12s\n", s.name, ms(pct(s.d, 50)), ms(pct(s.d, 95)),
			ms(pct(s.d, 50)-pct(bare.d, 50)), ms(pct(s.d, 95)-pct(bare.d, 95)))
	}
	fresh, sess := setups[1], setups[3]
	addFresh := pct(fresh.d, 50) - pct(bare.d, 50)
	addSess := pct(sess.d, 50) - pct(bare.d, 50)
	fmt.Println()
	fmt.Printf("session vs fresh bwrap, added latency at the median: %s vs %s: %.1fx less\n", ms(addSess), ms(addFresh), ratio(addFresh, addSess))
	target("added median via session <= 3 ms", addSess <= 3*time.Millisecond)
	target("added p95 via session <= 10 ms", pct(sess.d, 95)-pct(bare.d, 95) <= 10*time.Millisecond)
	target("at least 10x less added latency than fresh bwrap", ratio(addFresh, addSess) >= 10)
	addLarge := pct(setups[4].d, 50) - pct(bare.d, 50)
	fmt.Printf("20k-file workspace vs small one, added median: %s vs %s\n", ms(addLarge), ms(addSess))

	// Throughput: the command's stdout is a pipe the benchmark drains.
	// Alternate, five runs each, and compare medians: one run each is at
	// the mercy of whatever else the two cores are doing.
	script := fmt.Sprintf("head -c %d /dev/zero", size)
	var bareRates, shimRates []float64
	for range 5 {
		r, err := throughput(exec.Command(bash, "--noprofile", "--norc", "-c", script), size)
		if err != nil {
			return err
		}
		bareRates = append(bareRates, r)
		if r, err = throughput(shimCmd(small, sessions["small"], script), size); err != nil {
			return err
		}
		shimRates = append(shimRates, r)
	}
	slices.Sort(bareRates)
	slices.Sort(shimRates)
	tBare, tShim := bareRates[2], shimRates[2]
	fmt.Printf("\nthroughput of %d MiB to a pipe (median of 5): bare bash %.0f MiB/s, shim via session %.0f MiB/s (%.0f%%)\n",
		size>>20, tBare, tShim, 100*tShim/tBare)
	target("large output >= 80% of bare bash", tShim >= 0.8*tBare)

	rss, err := workerRSS(bin)
	if err != nil {
		return err
	}
	fmt.Printf("\nworker idle RSS: %.1f MiB (after %d commands)\n", float64(rss)/(1<<20), n+5)
	target("worker idle RSS < 20 MiB", rss < 20<<20)
	return nil
}

func throughput(c *exec.Cmd, size int64) (float64, error) {
	out, err := c.StdoutPipe()
	if err != nil {
		return 0, err
	}
	t0 := time.Now()
	if err := c.Start(); err != nil {
		return 0, err
	}
	got, err := io.Copy(io.Discard, out)
	if err != nil {
		return 0, err
	}
	if err := c.Wait(); err != nil {
		return 0, err
	}
	if got != size {
		return 0, fmt.Errorf("throughput: got %d bytes, want %d", got, size)
	}
	return float64(size) / (1 << 20) / time.Since(t0).Seconds(), nil
}

// workerRSS finds the session workers (the binary run as __worker, not
// bwrap) and returns the largest resident set.
func workerRSS(bin string) (int64, error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	var best int64 = -1
	for _, e := range ents {
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		args := strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
		if len(args) != 2 || args[0] != bin || args[1] != launch.WorkerCommand {
			continue
		}
		f, err := os.Open(filepath.Join("/proc", e.Name(), "status"))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var kb int64
			if _, err := fmt.Sscanf(sc.Text(), "VmRSS: %d kB", &kb); err == nil && kb*1024 > best {
				best = kb * 1024
			}
		}
		f.Close()
	}
	if best < 0 {
		return 0, fmt.Errorf("no worker process found")
	}
	return best, nil
}

func pct(d []time.Duration, p int) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	if i > 0 {
		i--
	}
	return s[i]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/1e6) }

func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		b = time.Microsecond
	}
	return float64(a) / float64(b)
}

func target(name string, ok bool) {
	mark := "met"
	if !ok {
		mark = "MISSED"
	}
	fmt.Printf("  target %-50s %s\n", name+":", mark)
}

func kernel() string {
	b, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	return "linux " + strings.TrimSpace(string(b))
}
