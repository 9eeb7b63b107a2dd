// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/launch"
)

// concurrency starts many commands at once, as an agent with parallel
// tool calls or a build does, through the session and bare, and
// compares each command's latency.
func (b *bench) concurrency() error {
	rounds := max(4, b.n/20)
	var bare, sess []time.Duration
	for range rounds {
		d, err := burst(b.concurrent, func() *exec.Cmd { return bash("true") })
		if err != nil {
			return err
		}
		bare = append(bare, d...)
		if d, err = burst(b.concurrent, func() *exec.Cmd { return b.shim("small", "true") }); err != nil {
			return err
		}
		sess = append(sess, d...)
	}
	fmt.Printf("\n%d commands at once (%d rounds): bare bash median %s p95 %s; session shim median %s p95 %s\n",
		b.concurrent, rounds, ms(pct(bare, 50)), ms(pct(bare, 95)), ms(pct(sess, 50)), ms(pct(sess, 95)))
	r := ratio(pct(sess, 50), pct(bare, 50))
	target(fmt.Sprintf("session / bare <= 2.5 with %d at once (%.2f)", b.concurrent, r), r <= 2.5, ms(pct(sess, 50)-5*pct(bare, 50)/2))
	return nil
}

func burst(n int, cmd func() *exec.Cmd) ([]time.Duration, error) {
	d := make([]time.Duration, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			errs[i] = cmd().Run()
			d[i] = time.Since(t0)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return d, nil
}

// throughput sends the same large output to a pipe from bare bash and
// through the shim, alternating five runs each, and compares medians:
// one run each is at the mercy of whatever else two cores are doing.
func (b *bench) throughput() error {
	script := fmt.Sprintf("head -c %d /dev/zero", b.size)
	var bareRates, shimRates []float64
	for range 5 {
		r, err := rate(bash(script), b.size)
		if err != nil {
			return err
		}
		bareRates = append(bareRates, r)
		if r, err = rate(b.shim("small", script), b.size); err != nil {
			return err
		}
		shimRates = append(shimRates, r)
	}
	slices.Sort(bareRates)
	slices.Sort(shimRates)
	tBare, tShim := bareRates[2], shimRates[2]
	fmt.Printf("\nthroughput of %d MiB to a pipe (median of 5): bare bash %.0f MiB/s, shim via session %.0f MiB/s (%.0f%%)\n",
		b.size>>20, tBare, tShim, 100*tShim/tBare)
	target("output through the shim >= 95% of bare bash", tShim >= 0.95*tBare, fmt.Sprintf("%.0f points", 95-100*tShim/tBare))
	return nil
}

func rate(c *exec.Cmd, size int64) (float64, error) {
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

// workerMemory reports the largest idle session worker's resident set.
func (b *bench) workerMemory() error {
	// Idle: the worker returns its free heap after 2 s without a command.
	time.Sleep(3 * time.Second)
	rss, err := workerRSS(b.bin)
	if err != nil {
		return err
	}
	fmt.Printf("\nworker idle RSS: %.1f MiB\n", float64(rss)/(1<<20))
	target("worker idle RSS <= 10 MiB", rss <= 10<<20, fmt.Sprintf("%.1f MiB", float64(rss-10<<20)/(1<<20)))
	return nil
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
		// The worker is the shim binary beside bin, or bin itself.
		if len(args) != 2 || (args[0] != bin && args[0] != contract.FindShimBinary(bin)) || args[1] != launch.WorkerCommand {
			continue
		}
		if kb := vmRSS(filepath.Join("/proc", e.Name(), "status")); kb*1024 > best {
			best = kb * 1024
		}
	}
	if best < 0 {
		return 0, fmt.Errorf("no worker process found")
	}
	return best, nil
}

func vmRSS(status string) int64 {
	f, err := os.Open(status)
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var kb int64
		if _, err := fmt.Sscanf(sc.Text(), "VmRSS: %d kB", &kb); err == nil {
			return kb
		}
	}
	return -1
}
