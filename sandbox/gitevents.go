// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

// EnvGitEvents is git's variable for its trace2 events in JSON lines
// (git-config(1) trace2.eventTarget): an absolute file name is appended
// to by every git process that inherits it.
const EnvGitEvents = "GIT_TRACE2_EVENT"

// gitEventsMount binds [Spec.GitEvents] read-write at itself, after the
// grants and caches (it lies in lite-sandbox's private directory, under
// /tmp or $XDG_RUNTIME_DIR, neither of which the sandbox shows).
func gitEventsMount(s Spec, fsys FS) []Mount {
	if s.GitEvents == "" {
		return nil
	}
	if fi, err := fsys.Stat(s.GitEvents); err != nil || !fi.IsDir() {
		return nil
	}
	return []Mount{{Kind: Bind, Src: s.GitEvents, Dst: s.GitEvents}}
}

func (s Spec) gitEventsPaths() []string {
	if s.GitEvents == "" {
		return nil
	}
	return []string{s.GitEvents}
}
