// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

// bwrapNamespaceArgs come first in every bwrap command line.
var bwrapNamespaceArgs = []string{
	// A PID namespace with a fresh /proc: host processes can be neither
	// seen nor signalled (escape classes 7 and 22), and when bwrap (PID 1
	// inside) exits, everything left in the namespace dies (class 23).
	"--unshare-pid",
	// No shared SysV IPC with the host (class 25), own hostname, own
	// cgroup view. The cgroup namespace is optional in old kernels.
	"--unshare-ipc",
	"--unshare-uts",
	"--unshare-cgroup-try",
	// setsid(): no controlling terminal, so TIOCSTI cannot push keystrokes
	// into the user's shell (class 21).
	"--new-session",
	// The sandbox dies with the shim (class 23).
	"--die-with-parent",
	// Root keeps every capability inside bwrap unless told otherwise; with
	// them it could remount the read-only binds or read around DAC checks.
	// bwrap also sets no_new_privs, so setuid binaries cannot regain them.
	"--cap-drop", "ALL",
}

// BwrapArgs returns the bwrap command line for one command, without the
// bwrap program itself: namespace options, the mounts in order, the
// working directory, "--" and argv. The environment is passed through
// unchanged; bwrap sets nothing new.
//
// The network is shared only when s.Network is exactly NetworkHost, or
// NetworkOpen without a user-space stack (s.UserNet ""); anything else
// unshares it, leaving loopback only until the stack connects it
// (escape classes 19, 20 and 28).
func BwrapArgs(mounts []Mount, s Spec, argv []string) []string {
	args := make([]string, 0, len(bwrapNamespaceArgs)+3*len(mounts)+4+len(argv))
	args = append(args, bwrapNamespaceArgs...)
	if !sharesHostNetwork(s) {
		args = append(args, "--unshare-net")
	}
	for _, m := range mounts {
		args = append(args, bwrapMountArgs(m)...)
	}
	cwd := s.Cwd
	if cwd == "" {
		cwd = s.Workspace
	}
	args = append(args, "--chdir", cwd, "--")
	return append(args, argv...)
}

// sharesHostNetwork says whether the sandbox of s is in the host's
// network namespace.
func sharesHostNetwork(s Spec) bool {
	return s.Network == NetworkHost || (s.Network == NetworkOpen && s.UserNet == "")
}

// RingBwrapArgs returns the bwrap command line of the ring, without the
// bwrap program: a PID namespace of its own (no host process is
// visible or signalled, and every process of the ring dies with its
// first one: bwrap is its init, escape classes 40 and 41), an IPC namespace of
// its own (no host SysV IPC), a UTS namespace of its own (the host's name
// stays, but a change to it stays inside: class 52, beside the read-only
// /proc/sys), every capability dropped, and the ring
// dies with its parent. A network namespace of its own with loopback
// only (#27): nothing of the host's network (its loopback services, its
// addresses, the LAN, the metadata address, DNS) is reachable, nor are
// the host's abstract sockets; the one way out is the agent's proxy
// socket, bridged by the confine step (docs/ring.md "The network").
// The session and the controlling terminal are the
// launcher's business (a pty of the agent's own, or none: see
// docs/security-model.md §6). The working directory is left to bwrap,
// which keeps the launcher's.
func RingBwrapArgs(mounts []Mount, argv []string) []string {
	args := []string{"--die-with-parent", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net", "--cap-drop", "ALL"}
	for _, m := range mounts {
		args = append(args, bwrapMountArgs(m)...)
	}
	args = append(args, "--")
	return append(args, argv...)
}

// bwrapMountArgs renders one mount.
func bwrapMountArgs(m Mount) []string {
	switch m.Kind {
	case ROBind:
		return []string{"--ro-bind", m.Src, m.Dst}
	case Bind:
		return []string{"--bind", m.Src, m.Dst}
	case Symlink:
		return []string{"--symlink", m.Src, m.Dst}
	case Proc:
		// Read-only as a whole: sysctls, /proc/sysrq-trigger and the rest
		// change the host, and as root (no user namespace) their owner
		// bits would let them open for writing (escape class 52). A
		// process's own /proc/PID files are read-only too; /proc/self/fd
		// links still reach the files they name (their own mounts).
		return []string{"--proc", m.Dst, "--remount-ro", m.Dst}
	case Dev:
		return []string{"--dev", m.Dst}
	case Tmpfs:
		return []string{"--tmpfs", m.Dst}
	case Dir:
		return []string{"--dir", m.Dst}
	case MaskDir:
		// Read-only, so that nothing can be planted where a tool expects
		// the real directory.
		return []string{"--tmpfs", m.Dst, "--remount-ro", m.Dst}
	case PlaceholderFile:
		if m.Src != "" {
			// An empty read-only file prepared by the runner.
			return []string{"--ro-bind", m.Src, m.Dst}
		}
		fallthrough
	case MaskFile:
		// A device on a nodev bind: opening it fails with EACCES, so the
		// file can be neither read nor written.
		return []string{"--ro-bind", "/dev/null", m.Dst}
	case PlaceholderDir:
		return []string{"--tmpfs", m.Dst, "--remount-ro", m.Dst}
	case RemountRO:
		return []string{"--remount-ro", m.Dst}
	case DevBind:
		return []string{"--dev-bind", m.Src, m.Dst}
	case Guard:
		// Kept by the launcher's guard, not by a mount.
		return nil
	}
	// Unknown kinds come only from a bug; fail closed by making bwrap
	// refuse the command line rather than silently dropping a mount.
	return []string{"--lite-sandbox-bug-unknown-mount-kind", m.Dst}
}
