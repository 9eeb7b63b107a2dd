// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package probe

import "strings"

// ContainerDoc is the recipe doctor points at in a container without
// user namespaces (#28).
const ContainerDoc = "docs/container.md"

// Container is what [ReadContainer] found: the signs that this process
// runs in a container and whether it may create a user namespace.
type Container struct {
	// Signs are what says "container": the runtimes' marker files, the
	// container environment variable, Kubernetes' service variable, a
	// user namespace that is not the initial one. None: not one.
	Signs []string
	// UserNS is "" when a user namespace could be created, else why
	// not (the errno of clone(CLONE_NEWUSER)).
	UserNS string
}

// Line is doctor's line for a container without user namespaces, or ""
// when c is not one: there bwrap cannot build a sandbox, the Landlock
// backend is the sandbox, and the container recipe says what it gives.
func (c Container) Line() string {
	if len(c.Signs) == 0 || c.UserNS == "" {
		return ""
	}
	return "container: in a container (" + strings.Join(c.Signs, ", ") + ") without user namespaces (" + c.UserNS +
		"): bwrap cannot build a sandbox here, the landlock backend can; how to run an agent in a container or a pod: " + ContainerDoc
}
