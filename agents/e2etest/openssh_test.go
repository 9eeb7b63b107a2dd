// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOpenNetworkSSH (#27, done-when "over SSH"): under network =
// "open", through the real lite-sandbox run and a session command, as
// root and as nobody, a command runs a real ssh session to the test's
// internet host (an sshd of this test in the "inet" namespace of
// TestOpenNetwork's neighbourhood) and clones a repository there over
// ssh://; ssh to an sshd on the host's loopback (not granted) fails
// (status 255) and is explained, naming sandbox.host_ports. Controls:
// the same ssh commands bare, as the same user in the same namespace,
// reach both servers. Hermetic: the test's own host key, client key,
// authorized_keys, ssh_config and known_hosts (in the workspace: the
// sandbox hides ~/.ssh, and git finds the test's ssh on PATH, which
// passes -F, since GIT_SSH_COMMAND is refused); the sshds are this
// test's processes (no system service; /run is a tmpfs of their own
// mount namespace, for sshd's privilege-separation directory).
func TestOpenNetworkSSH(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	if os.Getuid() != 0 {
		t.Skip("the test makes its network namespaces as root")
	}
	for _, p := range []string{"slirp4netns", "ip", "unshare", "nsenter", "ssh", "ssh-keygen", "git"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed (scripts/deps, scripts/test install it)", p)
		}
	}
	if _, err := os.Stat(sshdPath); err != nil {
		t.Skip("sshd is not installed (Debian's openssh-server; scripts/test apt-gets it)")
	}
	h := newHood(t)
	srv := sshServerFiles(t)
	startSSHD(t, h.inet, srv, "93.184.0.2", 22)
	startSSHD(t, h.host, srv, "127.0.0.1", 2222)
	key, err := os.ReadFile(filepath.Join(srv, "id"))
	if err != nil {
		t.Fatal(err)
	}
	users(t, func(t *testing.T, e *env) {
		h.enter(e)
		e.write("id", string(key))
		e.write("ssh_config", fmt.Sprintf("Host *\n  User root\n  IdentityFile %s/id\n  IdentitiesOnly yes\n"+
			"  UserKnownHostsFile %s/known_hosts\n  StrictHostKeyChecking no\n  BatchMode yes\n  ConnectTimeout 20\n", e.ws, e.ws))
		// ~/.ssh is out of the sandbox's sight, and GIT_SSH_COMMAND is
		// refused by the validator: git finds this ssh first on PATH.
		e.write("bin/ssh", "#!/bin/sh\nexec /usr/bin/ssh -F "+e.ws+"/ssh_config \"$@\"\n")
		if err := os.Chmod(filepath.Join(e.ws, "bin", "ssh"), 0o755); err != nil {
			t.Fatal(err)
		}
		e.setPath(filepath.Join(e.ws, "bin"))
		internet := "ssh -F ssh_config 93.184.0.2 echo ssh-ok-$((40+2))"
		neighbour := "ssh -F ssh_config -p 2222 127.0.0.1 echo ssh-ok-$((40+2))"
		for _, c := range []string{internet, neighbour} { // the controls
			if out := e.bare(t, c); !strings.Contains(out, "ssh-ok-42") {
				t.Fatalf("control: bare %q did not log in:\n%s", c, out)
			}
		}
		for _, where := range []string{"run", "session"} {
			out, errs, code := e.openCmd(where, internet)
			if code != 0 || !strings.Contains(out, "ssh-ok-42") {
				t.Errorf("%s, open: ssh to the internet host failed: exit %d\n%s\n%s", where, code, out, errs)
			}
			clone := "git clone -q ssh://93.184.0.2" + srv + "/repo.git c-" + where + " && cat c-" + where + "/README"
			out, errs, code = e.openCmd(where, clone)
			if code != 0 || !strings.Contains(out, "cloned-over-ssh") {
				t.Errorf("%s, open: git clone over ssh from the internet host failed: exit %d\n%s\n%s", where, code, out, errs)
			}
			out, errs, code = e.openCmd(where, neighbour)
			if code != 255 || strings.Contains(out, "ssh-ok-42") {
				t.Errorf("%s, open: ssh to the host's loopback: exit %d, want 255 and no login\n%s\n%s", where, code, out, errs)
			}
			line := neighbourLine(errs)
			for _, w := range []string{"127.0.0.1:2222", "sandbox.host_ports = [2222]"} {
				if !strings.Contains(line, w) {
					t.Errorf("%s: ssh to the host's loopback: the line %q lacks %q\nstderr:\n%s", where, line, w, errs)
				}
			}
		}
	})
}

const sshdPath = "/usr/sbin/sshd"

// bare runs the shell command c outside the sandbox, as e's user in
// e's namespace (the positive control), and returns its output.
func (e *env) bare(t *testing.T, c string) string {
	t.Helper()
	e.chownTree()
	cmd := exec.Command("/bin/sh", "-c", c)
	cmd.Dir, cmd.Env = e.ws, e.vars
	e.credential(cmd)
	e.wrap(cmd)
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// sshServerFiles makes the server side's files in a directory every
// user may read: a host key, the client's key pair (authorized_keys is
// its public half), sshd_config's common part, and a bare repository
// with one commit.
func sshServerFiles(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	for d := filepath.Dir(dir); d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
		os.Chmod(d, 0o755) // t.TempDir's parents are 0700: git over ssh reads the repository as root anyway
	}
	src := filepath.Join(dir, "src")
	steps := [][]string{
		{"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", filepath.Join(dir, "host_key")},
		{"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", filepath.Join(dir, "id")},
		{"cp", filepath.Join(dir, "id.pub"), filepath.Join(dir, "authorized_keys")},
		{"git", "init", "-q", src},
		{"sh", "-c", "echo cloned-over-ssh > " + src + "/README"},
		{"git", "-C", src, "add", "README"},
		{"git", "-C", src, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "one"},
		{"git", "clone", "-q", "--bare", src, filepath.Join(dir, "repo.git")},
	}
	for _, s := range steps {
		cmd := exec.Command(s[0], s[1:]...)
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1"}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", s, err, out)
		}
	}
	return dir
}

// startSSHD runs sshd -D -e with its own configuration on addr:port in
// the network namespace of pid, in a mount namespace of its own whose
// /run is a tmpfs (sshd wants /run/sshd; the host's /run is untouched),
// and waits until it accepts.
func startSSHD(t *testing.T, pid int, dir, addr string, port int) {
	t.Helper()
	cfg := filepath.Join(dir, fmt.Sprintf("sshd_config-%d", port))
	mustWrite(t, cfg, fmt.Sprintf("Port %d\nListenAddress %s\nHostKey %s/host_key\nAuthorizedKeysFile %s/authorized_keys\n"+
		"PermitRootLogin prohibit-password\nPasswordAuthentication no\nKbdInteractiveAuthentication no\nUsePAM no\n"+
		"StrictModes no\nPidFile none\nPrintMotd no\nPrintLastLog no\n", port, addr, dir, dir))
	cmd := exec.Command("nsenter", fmt.Sprintf("--net=/proc/%d/ns/net", pid), "--",
		"unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c",
		`mount -t tmpfs -o mode=0755 tmpfs /run && mkdir -m 0755 /run/sshd && exec "$@"`, "sh",
		sshdPath, "-D", "-e", "-f", cfg)
	var log strings.Builder
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-done })
	target := net.JoinHostPort(addr, fmt.Sprint(port))
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		select {
		case <-done:
			t.Fatalf("sshd on %s exited:\n%s", target, log.String())
		default:
		}
		err := inNetNS(pid, func() error {
			c, err := net.DialTimeout("tcp", target, time.Second)
			if err == nil {
				c.Close()
			}
			return err
		})
		if err == nil {
			return
		}
	}
	t.Fatalf("sshd on %s did not accept in 30s:\n%s", target, log.String())
}
