// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/shims/approval"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
	"github.com/lite-sandbox/lite-sandbox/shims/validator"
)

// TestQuestionEveryFinding: the question about a line with several ask
// findings names every rule and shape (one word for the rules, as
// `approve` lists them) and carries each finding for the grants; the
// agent's prompt and the refusal name them all (issue #26, finding 4).
func TestQuestionEveryFinding(t *testing.T) {
	t.Parallel()
	v, err := validator.New(policy.Default(), validator.Env{Workspace: "/w", Home: "/h"})
	if err != nil {
		t.Fatal(err)
	}
	line := "npm publish && terraform destroy -auto-approve; npm publish --tag x"
	r := v.Check(line)
	q := (&Shim{}).question(r, line, "/w")
	if q.Rule != "pkg.publish,infra.apply" || q.Shape != "npm publish; terraform destroy -auto-approve; npm publish --tag x" {
		t.Errorf("question rule %q shape %q", q.Rule, q.Shape)
	}
	if len(q.Findings) != 3 || q.Findings[1].Rule != "infra.apply" || q.Findings[2].Shape != "npm publish --tag x" {
		t.Errorf("findings %+v", q.Findings)
	}
	for _, msg := range []string{askMessage(r, approval.Answer{}), (&Shim{}).askRefusal(r)} {
		for _, want := range []string{"pkg.publish, infra.apply", "3 commands on this line ask", "terraform destroy -auto-approve"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%q does not say %q", msg, want)
			}
		}
	}
	// One finding: the question as before.
	one := v.Check("npm publish")
	if q := (&Shim{}).question(one, "npm publish", "/w"); q.Rule != "pkg.publish" || q.Shape != "npm publish" || q.Findings != nil {
		t.Errorf("one finding: %+v", q)
	}
	if msg := askMessage(one, approval.Answer{}); strings.Contains(msg, "on this line") {
		t.Errorf("one finding: %q", msg)
	}
}
