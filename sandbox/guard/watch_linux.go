// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package guard

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
	"golang.org/x/sys/unix"
)

// A protected path that does not exist gets no placeholder in the
// workspace (a placeholder is a name in the host's directory, which npm
// pack, tar, zip and the rest pack; #31). The launcher guards it
// instead, from outside every sandbox: inotify on the directories on its
// way, and whatever appears at it (a file, a directory, a link, or a
// link on its way) is moved at once to the workspace's quarantine
// directory and reported when the sandbox ends. The same sweep runs when
// the last sandbox of the workspace ends and at the next start after a
// launcher was killed (the record beside the lock file). The window
// between the creation and the move is a documented limit
// (docs/limits.md, "Protected paths that do not exist").

// Guard watches the guarded paths of one sandbox.
type Guard struct {
	paths []Path
	kept  []Kept // existing protected paths and their copies (Landlock)
	mask  uint32
	qdir  string
	in    int // inotify descriptor
	wake  int // eventfd that stops the loop
	done  chan struct{}

	mu      sync.Mutex
	watched map[[2]uint64]bool
	moved   []Quarantined
	err     error // the first watch that failed
}

const guardMask = unix.IN_CREATE | unix.IN_MOVED_TO | unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW

// keepMask adds what changes an existing file: a write, its end, a
// chmod, a removal or a rename away.
const keepMask = guardMask | unix.IN_MODIFY | unix.IN_CLOSE_WRITE | unix.IN_ATTRIB | unix.IN_DELETE | unix.IN_MOVED_FROM

// Start starts guarding paths that do not exist, and holding the
// existing ones in ks to their copies (keep_linux.go); what it moves
// goes to qdir. It has swept once when it returns, and returns nil
// when there is nothing to guard. It fails when inotify or a first
// watch cannot be had (the limits fs.inotify.max_user_instances and
// max_user_watches): the sandbox is refused rather than started with a
// protected path unguarded.
func Start(paths []Path, ks []Kept, qdir string) (*Guard, error) {
	if len(paths) == 0 && len(ks) == 0 {
		return nil, nil
	}
	in, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, fmt.Errorf("guard of protected paths: inotify: %w", err)
	}
	wake, err := unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK)
	if err != nil {
		unix.Close(in)
		return nil, fmt.Errorf("guard of protected paths: eventfd: %w", err)
	}
	g := &Guard{paths: paths, kept: ks, mask: guardMask, qdir: qdir, in: in, wake: wake, done: make(chan struct{}), watched: map[[2]uint64]bool{}}
	if len(ks) > 0 {
		g.mask = keepMask
	}
	g.sweep()
	if g.err != nil {
		unix.Close(in)
		unix.Close(wake)
		return nil, fmt.Errorf("guard of protected paths: %w", g.err)
	}
	go g.loop()
	return g, nil
}

// loop sweeps after every batch of events until Stop.
func (g *Guard) loop() {
	defer close(g.done)
	buf := make([]byte, 64<<10)
	fds := []unix.PollFd{{Fd: int32(g.in), Events: unix.POLLIN}, {Fd: int32(g.wake), Events: unix.POLLIN}}
	for {
		if _, err := unix.Poll(fds, -1); err != nil && !errors.Is(err, unix.EINTR) {
			return
		}
		if fds[1].Revents != 0 {
			return
		}
		// Drain: the sweep looks at the paths, not at the events (an
		// overflow loses nothing).
		for {
			if n, err := unix.Read(g.in, buf); n <= 0 || err != nil {
				break
			}
		}
		g.sweep()
	}
}

// Stop ends the guard after one last sweep and returns what it moved
// or put back. A nil Guard returns nil.
func (g *Guard) Stop() []Quarantined {
	if g == nil {
		return nil
	}
	unix.Write(g.wake, []byte{1, 0, 0, 0, 0, 0, 0, 0})
	<-g.done
	g.sweep()
	unix.Close(g.in)
	unix.Close(g.wake)
	return g.moved
}

// sweep checks every path until no new directory needed a watch (a
// name made before its directory's watch is seen by the next round).
func (g *Guard) sweep() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for range 64 {
		added := false
		for _, p := range g.paths {
			if g.check(p.Root, p.Path) {
				added = true
			}
		}
		for _, k := range g.kept {
			if g.checkKept(k) {
				added = true
			}
		}
		if !added {
			return
		}
	}
}

// check walks from root to p: it watches the last existing directory
// and quarantines p, or a link on its way, if it exists. It reports
// whether it added a watch.
func (g *Guard) check(root, p string) bool {
	if !hostpath.Below(p, root) {
		return false
	}
	comps := strings.Split(strings.TrimPrefix(p, strings.TrimSuffix(root, "/")+"/"), "/")
	cur := root
	for i, c := range comps {
		next := filepath.Join(cur, c)
		fi, err := os.Lstat(next)
		if err != nil {
			return g.watch(cur)
		}
		if i == len(comps)-1 || fi.Mode()&os.ModeSymlink != 0 {
			if q, ok := quarantine(root, next, g.qdir); ok {
				g.moved = append(g.moved, q)
			}
			// Watch on: it may be made again.
			return g.watch(cur)
		}
		if !fi.IsDir() {
			return false // nothing can exist below a file
		}
		cur = next
	}
	return false
}

// checkKept restores k if it differs from its copy, and watches the
// directories from the root to it and, for a directory, those of its
// copy. It reports whether it added a watch.
func (g *Guard) checkKept(k Kept) bool {
	rel := strings.TrimPrefix(filepath.Dir(k.Path), strings.TrimSuffix(k.Root, "/"))
	cur := k.Root
	dirs := []string{cur}
	for _, c := range strings.Split(strings.Trim(rel, "/"), "/") {
		if c == "" {
			continue
		}
		cur = filepath.Join(cur, c)
		dirs = append(dirs, cur)
		// A link or a file on the way (.git swapped for a link to a
		// copy of the agent's) is moved away as a created protected
		// name would be: the host's git would follow it.
		if fi, err := os.Lstat(cur); err == nil && !fi.IsDir() {
			if q, ok := quarantine(k.Root, cur, g.qdir); ok {
				g.moved = append(g.moved, q)
			}
			break
		}
	}
	if q, ok := keep(k, g.qdir); ok {
		g.moved = append(g.moved, q)
	}
	added := false
	for _, d := range append(dirs, k.Copy.dirs(k.Path)...) {
		if fi, err := os.Lstat(d); err == nil && fi.IsDir() && g.watch(d) {
			added = true
		}
	}
	return added
}

// watch adds an inotify watch on dir unless that directory (by device
// and inode: a directory renamed away and another made at its name are
// two) is watched already.
func (g *Guard) watch(dir string) bool {
	var st unix.Stat_t
	if unix.Lstat(dir, &st) != nil {
		return false
	}
	key := [2]uint64{st.Dev, st.Ino}
	if g.watched[key] {
		return false
	}
	if _, err := unix.InotifyAddWatch(g.in, dir, g.mask); err != nil {
		if g.err == nil && g.in >= 0 {
			g.err = fmt.Errorf("watch %s: %w", dir, err)
		}
		return false
	}
	g.watched[key] = true
	return true
}

// quarantine moves p (below root) into qdir, or, on another file
// system, renames it to a hidden name beside it (so that the protected
// name is gone at once) and removes that. The directories on the way
// are opened one by one without following links and the rename is made
// relative to the last one: a sandbox that swaps one for a link between
// the check and the move cannot make the launcher move a file outside
// the workspace.
func quarantine(root, p, qdir string) (Quarantined, bool) {
	dir, err := openBelow(root, filepath.Dir(p))
	if err != nil {
		return Quarantined{}, false
	}
	defer unix.Close(dir)
	name := filepath.Base(p)
	var st unix.Stat_t
	if unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
		return Quarantined{}, false
	}
	var rnd [8]byte
	rand.Read(rnd[:])
	if qdir != "" && os.MkdirAll(qdir, 0o700) == nil {
		to := filepath.Join(qdir, time.Now().UTC().Format("20060102T150405.000000000")+"-"+hex.EncodeToString(rnd[:4])+"-"+
			strings.ReplaceAll(strings.TrimPrefix(p, strings.TrimSuffix(root, "/")+"/"), "/", "%"))
		err := unix.Renameat(dir, name, unix.AT_FDCWD, to)
		if err == nil {
			return Quarantined{Path: p, To: to}, true
		}
		if !errors.Is(err, unix.EXDEV) {
			return Quarantined{}, false
		}
	}
	tmp := ".lite-sandbox-quarantine-" + hex.EncodeToString(rnd[:])
	if unix.Renameat(dir, name, dir, tmp) != nil {
		return Quarantined{}, false
	}
	// Through the descriptor: the directory may have been moved since.
	os.RemoveAll(fmt.Sprintf("/proc/self/fd/%d/%s", dir, tmp))
	return Quarantined{Path: p}, true
}

// openBelow opens directory d (root or below it) one component at a
// time, following no link, and returns its descriptor.
func openBelow(root, d string) (int, error) {
	fd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil || d == root {
		return fd, err
	}
	if !hostpath.Below(d, root) {
		unix.Close(fd)
		return -1, fmt.Errorf("%s is not below %s", d, root)
	}
	for _, c := range strings.Split(strings.TrimPrefix(d, strings.TrimSuffix(root, "/")+"/"), "/") {
		next, err := unix.Openat(fd, c, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		unix.Close(fd)
		if err != nil {
			return -1, err
		}
		fd = next
	}
	return fd, nil
}
