// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// ringNetBench reports the agent ring's launch cost with its network
// (#27): `launch exec` from its start to the program's exec, the ring
// in its own network namespace behind the agent's proxy (the bridge
// started in the confine step), beside the same with one
// agent.host_ports port forwarded (the forwarder's cost), and the
// program started directly. The ring without its namespace (the path
// before #27) is not measured: no option turns the namespace off (it
// would be a way around the agent's proxy), so that binary no longer
// exists; docs/performance.md keeps the earlier "launch adds" figures.
func ringNetBench(bin, noop, ws, home string, n int) error {
	runs := max(10, n/10)
	cfg := filepath.Join(home, "ringnet-config.toml")
	if err := os.WriteFile(cfg, []byte("[agent]\nhost_ports = [47999]\n"), 0o644); err != nil {
		return err
	}
	var direct, ring, fwd []time.Duration
	for range runs {
		d, err := stamped(exec.Command(noop, "-stamp"))
		if err != nil {
			return err
		}
		direct = append(direct, d)
		for _, r := range []struct {
			extra []string
			into  *[]time.Duration
		}{{nil, &ring}, {[]string{"LITE_SANDBOX_CONFIG=" + cfg}, &fwd}} {
			c := exec.Command(bin, "launch", "--sandbox", "on", "exec", "--", noop, "-stamp")
			c.Dir, c.Env = ws, append(append(os.Environ(), "HOME="+home), r.extra...)
			if d, err = stamped(c); err != nil {
				return err
			}
			*r.into = append(*r.into, d)
		}
	}
	fmt.Printf("\nthe agent ring's launch with its network namespace (launch exec, start to the program's exec; median of %d)\n", runs)
	fmt.Printf("  %-44s median %s  p95 %s\n", "directly", ms(pct(direct, 50)), ms(pct(direct, 95)))
	fmt.Printf("  %-44s median %s  p95 %s  (+%s)\n", "ring, own namespace + agent's proxy", ms(pct(ring, 50)), ms(pct(ring, 95)), ms(pct(ring, 50)-pct(direct, 50)))
	fmt.Printf("  %-44s median %s  p95 %s  (+%s over the ring)\n", "ring, and one agent.host_ports forwarded", ms(pct(fwd, 50)), ms(pct(fwd, 95)), ms(pct(fwd, 50)-pct(ring, 50)))
	fmt.Println("  the ring without its namespace (before #27): not measured, no option turns it off (docs/performance.md has the earlier figures)")
	return nil
}
