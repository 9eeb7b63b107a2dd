// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package probe

import (
	"fmt"
	"strings"
)

// appArmorProfileFile is where AppArmorFix installs its profile.
const appArmorProfileFile = "/etc/apparmor.d/lite-sandbox-bwrap"

// ubuntuBwrapProfile is the stricter profile Ubuntu 25.04 and later ship
// among AppArmor's extra profiles: bwrap may create a user namespace,
// and what runs inside is confined by a child profile without the
// capabilities the namespace would give (docs/launch.md).
const ubuntuBwrapProfile = "/usr/share/apparmor/extra-profiles/bwrap-userns-restrict"

// AppArmorProfile is an AppArmor profile that lets the bwrap at path
// create user namespaces on a kernel with
// kernel.apparmor_restrict_unprivileged_userns=1 (Ubuntu 23.10 and
// later), in the form Ubuntu uses for programs that need them: the
// program stays unconfined otherwise. A pure function, pinned by a
// golden test.
func AppArmorProfile(path string) string {
	return fmt.Sprintf(`# %s: lets bubblewrap create the user namespaces its
# sandboxes are built on (lite-sandbox doctor, #28).
abi <abi/4.0>,
include <tunables/global>

profile lite-sandbox-bwrap %s flags=(unconfined) {
  userns,

  include if exists <local/lite-sandbox-bwrap>
}
`, appArmorProfileFile, appArmorPath(path))
}

// appArmorPath quotes a path for a profile's attachment when it has a
// space or a character AppArmor reads as a glob.
func appArmorPath(p string) string {
	if strings.ContainsAny(p, " \t\"*?[]{}^") {
		return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(p) + `"`
	}
	return p
}

// AppArmorFix returns doctor's lines for a host where AppArmor keeps
// bwrap from creating user namespaces: the commands a person with sudo
// runs to install the profile (Ubuntu's own stricter one when the host
// has it), nothing run by lite-sandbox itself. haveUbuntu says whether
// ubuntuBwrapProfile exists.
func AppArmorFix(bwrap string, haveUbuntu bool) []string {
	lines := []string{
		"apparmor: kernel.apparmor_restrict_unprivileged_userns=1 keeps bwrap from creating user namespaces;",
		"  with sudo, allow it for bwrap alone (nothing is changed by lite-sandbox):",
	}
	if haveUbuntu {
		lines = append(lines,
			"    sudo install -m 0644 "+ubuntuBwrapProfile+" /etc/apparmor.d/bwrap-userns-restrict",
			"    sudo apparmor_parser -r /etc/apparmor.d/bwrap-userns-restrict",
		)
	} else {
		lines = append(lines, "    sudo tee "+appArmorProfileFile+" >/dev/null <<'EOF'")
		for _, l := range strings.Split(strings.TrimSuffix(AppArmorProfile(bwrap), "\n"), "\n") {
			lines = append(lines, "    "+l)
		}
		lines = append(lines, "    EOF", "    sudo apparmor_parser -r "+appArmorProfileFile)
	}
	return append(lines, "  then run `lite-sandbox doctor` again.")
}
