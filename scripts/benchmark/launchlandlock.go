// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
)

// launchBackends puts the agent ring's launch under the Landlock backend
// beside bwrap's (#28): `launch exec` from its start to the program's
// exec in the ring, interleaved, with the program started directly.
func (b *bench) launchBackends() error {
	runs := max(10, b.n/10)
	var direct, bw, ll []time.Duration
	for range runs {
		d, err := stamped(exec.Command(b.noop, "-stamp"))
		if err != nil {
			return err
		}
		direct = append(direct, d)
		for _, r := range []struct {
			backend string
			into    *[]time.Duration
		}{{"bwrap", &bw}, {sandbox.BackendLandlock, &ll}} {
			c := exec.Command(b.bin, "launch", "--sandbox", "on", "exec", "--", b.noop, "-stamp")
			c.Dir, c.Env = b.small, append(os.Environ(), "HOME="+b.home, "LITE_SANDBOX_BACKEND="+r.backend)
			if d, err = stamped(c); err != nil {
				return fmt.Errorf("launch exec, %s backend: %w", r.backend, err)
			}
			*r.into = append(*r.into, d)
		}
	}
	fmt.Printf("\nthe agent ring's launch by backend (launch exec, start to the program's exec in the ring; median of %d)\n", runs)
	fmt.Printf("  %-28s median %s  p95 %s\n", "directly", ms(pct(direct, 50)), ms(pct(direct, 95)))
	fmt.Printf("  %-28s median %s  p95 %s  (+%s)\n", "ring, bwrap backend", ms(pct(bw, 50)), ms(pct(bw, 95)), ms(pct(bw, 50)-pct(direct, 50)))
	fmt.Printf("  %-28s median %s  p95 %s  (+%s)\n", "ring, landlock backend", ms(pct(ll, 50)), ms(pct(ll, 95)), ms(pct(ll, 50)-pct(direct, 50)))
	return nil
}
