// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
	"golang.org/x/sys/unix"
)

// bwrapInstallHint is appended when bwrap is missing.
const bwrapInstallHint = "install it with `apt-get install bubblewrap` (Debian, Ubuntu), `dnf install bubblewrap` (Fedora) or `pacman -S bubblewrap` (Arch)"

// probeTimeout bounds each bwrap run of Detect; a hung probe (NFS, autofs)
// must not hang the session. It is a hang guard, generous on purpose: a
// probe that times out on a busy machine is a failed probe, which mode
// auto answers by running unsandboxed (#29).
const probeTimeout = 60 * time.Second

// Detect finds bwrap (on $PATH, else /usr/bin/bwrap), reads its version
// and really builds a throwaway sandbox with the namespaces [Prepare]
// uses, so that blocked user namespaces (Ubuntu's AppArmor restriction,
// containers, a zero max_user_namespaces) are found now rather than on
// the first command.
func Detect() (Backend, error) {
	b, err := find()
	if err != nil {
		return Backend{}, err
	}
	p := b.Path

	out, err := runProbe(p, "--version")
	if err != nil {
		return Backend{}, fmt.Errorf("bwrap --version (%s): %w", p, err)
	}
	// "bubblewrap 0.8.0"
	fields := strings.Fields(out)
	if len(fields) == 0 {
		return Backend{}, fmt.Errorf("bwrap --version (%s): no version in output", p)
	}
	b.Version = fields[len(fields)-1]

	trueBin, err := exec.LookPath("true")
	if err != nil {
		trueBin = "/bin/true"
	}
	args := append([]string{}, bwrapNamespaceArgs...)
	args = append(args, "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--", trueBin)
	if _, err := runProbe(p, args...); err != nil {
		return Backend{}, fmt.Errorf("bwrap cannot create a sandbox here: %w%s", err, userNSHint(err))
	}
	return b, nil
}

// find locates bwrap without running it: $LITE_SANDBOX_BWRAP when set,
// else bwrap on $PATH, else /usr/bin/bwrap. It is what every command
// pays, so it only looks; a bwrap that cannot build a sandbox still
// fails closed when it runs (it exits non-zero before the command starts).
// [Detect] is the thorough check, for doctor and session start.
func find() (Backend, error) {
	p := os.Getenv(envBwrap)
	if p == "" {
		var err error
		if p, err = exec.LookPath("bwrap"); err != nil {
			p = "/usr/bin/bwrap"
		}
	}
	if fi, err := os.Stat(p); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		return Backend{}, fmt.Errorf("bwrap not found (%s): %s", p, bwrapInstallHint)
	}
	return Backend{Name: "bwrap", Path: p}, nil
}

// runProbe runs bwrap with a timeout and returns its stdout, or an error
// carrying its stderr.
func runProbe(path string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	err := cmd.Run()
	if ctx.Err() != nil {
		return "", fmt.Errorf("timed out after %v", probeTimeout)
	}
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", errors.New(msg)
		}
		return "", err
	}
	return stdout.String(), nil
}

// userNSHint explains the usual causes of a failing probe.
func userNSHint(err error) string {
	msg := err.Error()
	for _, s := range []string{"namespace", "uid map", "Operation not permitted", "Permission denied"} {
		if strings.Contains(msg, s) {
			return " (user namespaces are probably blocked: check `lite-sandbox doctor`; on Ubuntu 24.04 and later kernel.apparmor_restrict_unprivileged_userns=1 needs an AppArmor profile for bwrap; in a container, run it with user namespaces allowed)"
		}
	}
	return ""
}

// Prepare returns the bwrap command line that runs argv in the sandbox
// described by s (Path is bwrap's absolute path, Args[0] the same path,
// the rest [BwrapArgs] over [Layout] of the host filesystem, after
// [DetectHost]). It fails with a [*SetupError] when the sandbox cannot be
// built, including a working directory outside the workspace and every
// grant. The caller runs the command and calls Done when it has exited:
// every sandbox of a workspace holds a shared lock on it from before its
// layout is computed, and the last one to finish removes the
// placeholders it created that are still empty.
// Removing a placeholder while another sandbox uses it as a mount point
// would detach that sandbox's protection (escape class 13).
func Prepare(b Backend, s Spec, argv []string) (*Prepared, error) {
	if b.Name == BackendLandlock {
		return prepareLandlock(s, argv)
	}
	lock := lockWorkspace(s.Workspace)
	record := ""
	if lock != nil {
		record = lock.record
	}
	p, err := prepare(b, s, argv, record)
	if err != nil {
		if lock != nil {
			lock.release()
		}
		return nil, err
	}
	rm := p.release
	g, err := startGuarding(s, p.Mounts, record)
	if err != nil {
		if lock != nil {
			lock.release()
		}
		p.Done()
		return nil, &SetupError{Op: "guard", Err: err}
	}
	if lock != nil {
		p.quarantined = lock.swept
	}
	p.Mounts = nil
	p.release = func() {
		p.quarantined = append(p.quarantined, g.Stop()...)
		if lock != nil {
			p.quarantined = append(p.quarantined, lock.release()...)
		}
		if rm != nil {
			rm()
		}
	}
	return p, nil
}

func prepare(b Backend, s Spec, argv []string, record string) (*Prepared, error) {
	scratch := record != ""
	if b.Path == "" {
		return nil, &SetupError{Op: "backend", Err: errors.New("no bwrap path (call Detect first)")}
	}
	if err := checkCommand(s, argv); err != nil {
		return nil, err
	}
	DetectHost(&s)
	if s.Network == NetworkOpen {
		s.UserNet, _ = UserNet()
	}
	if err := ensureCacheLayers(&s); err != nil {
		return nil, &SetupError{Op: "cache layers", Err: err}
	}
	gitTmp := ""
	if scratch && s.GitHome.Config == "" {
		// A copy the caller made already (a launch's, shared with its
		// ring: WriteGitHome) is used as it is.
		gitTmp = writeGitHome(&s)
	}
	mounts, err := Layout(s, OSFS{})
	if err != nil {
		if gitTmp != "" {
			os.Remove(gitTmp)
		}
		return nil, &SetupError{Op: "layout", Err: err}
	}
	mounts = dropUnneededPlaceholders(mounts)
	if !scratch {
		// Without a private directory a placeholder file is /dev/null,
		// and git dies on an unreadable commondir.
		mounts = slices.DeleteFunc(mounts, func(m Mount) bool {
			return m.Kind == PlaceholderFile && placeholderContent(m.Dst) == ".\n"
		})
	}
	ph := Placeholders(mounts)
	var tmp, tmpl string
	if scratch && len(ph) > 0 {
		createPlaceholders(mounts, record)
		mounts, tmp = dressPlaceholders(s, mounts, ph)
		mounts, tmpl = templateExclude(s, mounts, ph)
	}
	tmps := []string{tmp, tmpl, gitTmp}
	if scratch {
		tmps = append(tmps, moduleConfigCopies(mounts)...)
	}
	var un *userNet
	if s.Network == NetworkOpen && s.UserNet != "" {
		if mounts, un, err = withUserNet(s, mounts, argv); err != nil {
			return nil, &SetupError{Op: "user network", Err: err}
		}
	}
	args := append([]string{b.Path}, BwrapArgs(mounts, s, argv)...)
	// Mounts only for Prepare's guard, which clears them.
	p := &Prepared{Path: b.Path, Args: args, Placeholders: ph, Mounts: mounts, net: un, Notice: networkNotice(s)}
	// Files made for this command only: removed when it is done.
	if slices.ContainsFunc(tmps, func(t string) bool { return t != "" }) {
		p.release = func() {
			for _, t := range tmps {
				if t != "" {
					os.Remove(t)
				}
			}
		}
	}
	return p, nil
}

// dropUnneededPlaceholders removes the placeholders whose parent this
// user cannot write: the sandboxed command (same user, no capabilities)
// cannot create anything there either, and bwrap would fail to create
// the mount point, failing every command.
func dropUnneededPlaceholders(ms []Mount) []Mount {
	out := ms[:0:0]
	for _, m := range ms {
		if (m.Kind == PlaceholderDir || m.Kind == PlaceholderFile) && unix.Access(filepath.Dir(m.Dst), unix.W_OK) != nil {
			continue
		}
		out = append(out, m)
	}
	return out
}

// dressPlaceholders makes file placeholders empty read-only regular
// files (readable, so that git and editors see an empty file rather than
// an error) and hides every placeholder from git inside the sandbox with
// a generated copy of the repository's info/exclude, so that an agent's
// `git add -A` does not commit them. It returns the new mounts and a
// temporary file to remove after the sandbox exits ("" for none).
func dressPlaceholders(s Spec, ms []Mount, ph []string) ([]Mount, string) {
	dir := privateDir()
	if dir == "" {
		return ms, ""
	}
	empty := filepath.Join(dir, "empty")
	if fi, err := os.Lstat(empty); err != nil || !fi.Mode().IsRegular() || fi.Size() != 0 {
		os.Remove(empty)
		if f, err := os.OpenFile(empty, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o444); err == nil {
			f.Close()
		}
	}
	if fi, err := os.Lstat(empty); err == nil && fi.Mode().IsRegular() && fi.Size() == 0 {
		for i := range ms {
			if ms[i].Kind != PlaceholderFile {
				continue
			}
			ms[i].Src = empty
			if c := placeholderContent(ms[i].Dst); c != "" {
				// The host sees the mount point while the sandbox runs,
				// and reads it (see placeholderContent).
				writeNew(ms[i].Dst, c, 0o444)
				if src := contentFile(dir, c); src != "" {
					ms[i].Src = src
				}
			}
		}
	}
	var exclude string
	if fi, err := os.Lstat(filepath.Join(s.Workspace, ".git")); err == nil && fi.IsDir() {
		exclude = filepath.Join(s.Workspace, ".git", "info", "exclude")
	} else if s.Git.Common != "" {
		exclude = filepath.Join(s.Git.Common, "info", "exclude")
	}
	if exclude == "" {
		return ms, ""
	}
	orig, err := os.ReadFile(exclude)
	if errors.Is(err, os.ErrNotExist) {
		// Repositories made without git's templates lack the file. An
		// empty one is what `git init` would have written, and the bind
		// needs a mount point: without it an agent's `git add -A` would
		// commit the placeholders.
		if os.MkdirAll(filepath.Dir(exclude), 0o755) == nil {
			writeNew(exclude, "", 0o644)
		}
		orig, err = os.ReadFile(exclude)
	}
	if err != nil {
		return ms, ""
	}
	var b strings.Builder
	b.Write(orig)
	b.WriteString("\n# lite-sandbox: read-only placeholders of protected paths\n")
	for _, p := range ph {
		if hostpath.Within(p, s.Workspace) && p != s.Workspace {
			b.WriteString("/" + strings.TrimPrefix(p, s.Workspace+"/") + "\n")
		}
	}
	f, err := os.CreateTemp(dir, "exclude-")
	if err != nil {
		return ms, ""
	}
	_, werr := f.WriteString(b.String())
	if cerr := f.Close(); werr != nil || cerr != nil {
		os.Remove(f.Name())
		return ms, ""
	}
	return insertBeforeRemount(ms, Mount{Kind: ROBind, Src: f.Name(), Dst: exclude}), f.Name()
}

func hasContent(p, want string) bool {
	b, err := os.ReadFile(p)
	return err == nil && string(b) == want
}

// writeNew creates a file with the given content and mode, and does
// nothing when the path exists.
func writeNew(p, content string, mode os.FileMode) {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return
	}
	_, werr := f.WriteString(content)
	if cerr := f.Close(); werr != nil || cerr != nil {
		os.Remove(p)
	}
}

// privateDir returns lite-sandbox's private per-user directory for locks
// and scratch files, beside the sessions' runtime directory (not in it),
// or "" when it cannot be made private.
func privateDir() string {
	dir := privateDirPath()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return ""
	}
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() || fi.Mode().Perm()&0o077 != 0 {
		return ""
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
		return ""
	}
	return dir
}

// privateDirPath is where privateDir lives; it neither creates nor
// checks it.
func privateDirPath() string {
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "lite-sandbox-locks")
	}
	return filepath.Join(os.TempDir(), "lite-sandbox-locks-"+strconv.Itoa(os.Getuid()))
}
