// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package probe

import (
	"strings"
	"testing"
)

// TestContainerLine (#28): doctor points at the container recipe only in
// a container (some sign of one) where no user namespace can be made.
func TestContainerLine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		c    Container
		want string
	}{
		{"host", Container{}, ""},
		{"container with user namespaces", Container{Signs: []string{"/.dockerenv"}}, ""},
		{"no user namespaces, no container", Container{UserNS: "clone(CLONE_NEWUSER): operation not permitted"}, ""},
		{"default container", Container{Signs: []string{"/.dockerenv", "KUBERNETES_SERVICE_HOST"}, UserNS: "clone(CLONE_NEWUSER): operation not permitted"},
			"container: in a container (/.dockerenv, KUBERNETES_SERVICE_HOST) without user namespaces (clone(CLONE_NEWUSER): operation not permitted)"},
	} {
		got := c.c.Line()
		if (c.want == "") != (got == "") || !strings.HasPrefix(got, c.want) || (got != "" && !strings.HasSuffix(got, ContainerDoc)) {
			t.Errorf("%s: Line() = %q, want %q... %s", c.name, got, c.want, ContainerDoc)
		}
	}
}
