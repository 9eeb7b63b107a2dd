// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package probe

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
	"golang.org/x/sys/unix"
)

// procRoot is where ReadKernel reads sysctls; tests may point it
// elsewhere.
var procRoot = "/proc"

// ReadKernel reports user namespaces, the Landlock ABI, seccomp and the
// kernel release, for `lite-sandbox doctor`. It never fails: what it
// cannot find out is said in the line.
func ReadKernel() Kernel {
	var k Kernel
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		k.Release = fmt.Sprintf("unknown (uname: %v)", err)
	} else {
		k.Release = unix.ByteSliceToString(u.Release[:])
	}
	k.UserNamespaces = probeUserNS()
	v, _, _ := Sysctl(procRoot, "kernel.apparmor_restrict_unprivileged_userns")
	k.AppArmorRestricted = v == "1"
	k.LandlockABI, k.Landlock = probeLandlock()
	k.Seccomp = probeSeccomp()
	return k
}

// Sysctl returns a sysctl's value below proc (normally /proc) and
// whether the file exists.
func Sysctl(proc, name string) (string, bool, error) {
	b, err := os.ReadFile(proc + "/sys/" + strings.ReplaceAll(name, ".", "/"))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", false, nil
		}
		return "", true, err
	}
	return strings.TrimSpace(string(b)), true, nil
}

// probeUserNS reads the three switches that decide whether an
// unprivileged bwrap can create its namespaces.
func probeUserNS() string {
	var notes []string
	ok := true
	if v, found, err := Sysctl(procRoot, "user.max_user_namespaces"); err != nil {
		notes = append(notes, fmt.Sprintf("user.max_user_namespaces unreadable: %v", err))
	} else if found {
		notes = append(notes, "user.max_user_namespaces="+v)
		if n, err := strconv.Atoi(v); err == nil && n == 0 {
			ok = false
		}
	} else {
		ok = false
		notes = append(notes, "no user.max_user_namespaces (kernel without CONFIG_USER_NS?)")
	}
	// Debian and older Ubuntu kernels.
	if v, found, err := Sysctl(procRoot, "kernel.unprivileged_userns_clone"); err == nil && found {
		notes = append(notes, "kernel.unprivileged_userns_clone="+v)
		if v == "0" {
			ok = false
		}
	}
	// Ubuntu 23.10+: unprivileged user namespaces only for programs with
	// an AppArmor profile that allows them.
	if v, found, err := Sysctl(procRoot, "kernel.apparmor_restrict_unprivileged_userns"); err == nil && found {
		notes = append(notes, "kernel.apparmor_restrict_unprivileged_userns="+v)
		if v == "1" {
			notes = append(notes, "AppArmor restricts them: bwrap needs an AppArmor profile with `userns`")
			ok = false
		}
	}
	state := "available to unprivileged users"
	if !ok {
		state = "restricted for unprivileged users (root still works)"
	}
	return state + " (" + strings.Join(notes, "; ") + ")"
}

// probeLandlock describes the kernel's Landlock support.
func probeLandlock() (int, string) {
	v, errno := confine.LandlockVersion()
	if errno != 0 {
		if errno == unix.ENOSYS || errno == unix.EOPNOTSUPP {
			return 0, "unavailable: not supported by kernel or not enabled at boot time"
		}
		return 0, fmt.Sprintf("unavailable: landlock_create_ruleset: %v", errno)
	}
	return v, fmt.Sprintf("ABI version %d", v)
}

// probeSeccomp reports whether seccomp filters can be installed and the
// current process's own seccomp mode (a container usually runs under a
// filter already).
func probeSeccomp() string {
	mode, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0)
	if err != nil {
		if errors.Is(err, unix.EINVAL) {
			return "unavailable: kernel built without seccomp"
		}
		return fmt.Sprintf("unknown: prctl(PR_GET_SECCOMP): %v", err)
	}
	self := map[int]string{0: "none", 1: "strict", 2: "filter"}[mode]
	if self == "" {
		self = strconv.Itoa(mode)
	}
	b, err := os.ReadFile(procRoot + "/sys/kernel/seccomp/actions_avail")
	if err != nil {
		return fmt.Sprintf("available, filter support unknown (%v); this process: %s", err, self)
	}
	return fmt.Sprintf("filter mode available (actions: %s); this process: %s", strings.TrimSpace(string(b)), self)
}

// AppArmorAdvice is [AppArmorFix] for this host when k says AppArmor
// restricts user namespaces, else nil: the profile attaches to bwrap's
// resolved path (bwrap, "" when there is none).
func AppArmorAdvice(k Kernel, bwrap string) []string {
	if !k.AppArmorRestricted || bwrap == "" {
		return nil
	}
	p := bwrap
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	_, err := os.Stat(ubuntuBwrapProfile)
	return AppArmorFix(p, err == nil)
}
