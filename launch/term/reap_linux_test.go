// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package term

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// killRingEnv makes the test binary act as a ring's leader
// (killRingHelper): its value is the file the tree writes its pids to.
const killRingEnv = "LITE_SANDBOX_TEST_KILLRING"

func TestMain(m *testing.M) {
	if f := os.Getenv(killRingEnv); f != "" {
		os.Exit(killRingHelper(f))
	}
	os.Exit(m.Run())
}

// killRingTree leaves, below its caller, a shell that made a session of
// its own (setsid) whose parent has exited, with two sleeps below it,
// one a grandchild through a subshell that exited too: the shapes of a
// daemon that escapes a process group (escape class 41).
const killRingTree = `( setsid sh -c '(sleep 600 & echo $! >> "$0"); sleep 600 & echo $! >> "$0"; echo $$ >> "$0"; wait' "$0" & ); exit 0`

// killRingHelper becomes a subreaper as the leader does, starts
// killRingTree, and once its three pids are written checks that they
// are alive (the control), calls killRing and reports any pid still
// there; status 0 when none is.
func killRingHelper(pidfile string) int {
	becomeSubreaper()
	// No pipe: the tree would hold it open.
	if err := exec.Command("/bin/sh", "-c", killRingTree, pidfile).Run(); err != nil {
		fmt.Printf("the tree: %v\n", err)
		return 1
	}
	var pids []int
	for end := time.Now().Add(time.Minute); len(pids) < 3; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			fmt.Printf("the tree wrote %v\n", pids)
			return 1
		}
		b, _ := os.ReadFile(pidfile)
		pids = pids[:0]
		for _, f := range strings.Fields(string(b)) {
			if p, err := strconv.Atoi(f); err == nil {
				pids = append(pids, p)
			}
		}
	}
	for _, p := range pids {
		if syscall.Kill(p, 0) != nil {
			fmt.Printf("control: %d is not alive before killRing\n", p)
			return 1
		}
	}
	fmt.Printf("alive %d\n", len(pids))
	killRing()
	status := 0
	for _, p := range pids {
		if err := syscall.Kill(p, 0); err != syscall.ESRCH {
			fmt.Printf("survivor %d: %v\n", p, err)
			status = 1
		}
	}
	return status
}

// TestKillRing: killRing, in a subreaper, kills and reaps every process
// below it, one in a session of its own whose parent has exited and its
// own orphaned child too, and returns. The control: they were alive
// before it (the helper checks).
func TestKillRing(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("needs /bin/sh")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), killRingEnv+"="+filepath.Join(t.TempDir(), "pids"))
	done := make(chan struct{})
	var out []byte
	var err error
	go func() { out, err = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("killRing hung:\n%s", out)
	}
	if err != nil || !strings.Contains(string(out), "alive 3") {
		t.Fatalf("helper: %v\n%s", err, out)
	}
}
