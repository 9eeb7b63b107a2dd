// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"slices"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// TestEveryAskFinding: every ask rule's match on a line is reported in
// Result.Asks, once per rule and shape, so that a person is asked about
// each and a grant covers only what they saw (issue #26, finding 4).
func TestEveryAskFinding(t *testing.T) {
	t.Parallel()
	v, err := New(policy.Default(), ruleExampleEnv())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cmd  string
		want []string // rule id and shape, in order
	}{
		{"npm publish && terraform destroy -auto-approve",
			[]string{"pkg.publish|npm publish", "infra.apply|terraform destroy -auto-approve"}},
		{"npm publish; npm publish --tag evil; npm publish",
			[]string{"pkg.publish|npm publish", "pkg.publish|npm publish --tag evil"}},
		{"for i in 1 2; do cargo publish; done; sh -c 'kubectl delete pod x'",
			[]string{"pkg.publish|cargo publish", "infra.kubectl|kubectl delete pod x"}},
		{"npm publish", []string{"pkg.publish|npm publish"}},
		{"npm test", nil},
		// A denial wins and carries no question.
		{"npm publish; git push -f", nil},
	} {
		r := v.Check(c.cmd)
		var got []string
		for _, f := range r.Asks {
			got = append(got, f.RuleID+"|"+f.Command)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: asks %q, want %q (decision %s %s)", c.cmd, got, c.want, r.Decision, r.RuleID)
		}
		if len(c.want) > 0 && (r.Decision != policy.Ask || r.RuleID != r.Asks[0].RuleID || r.Command != r.Asks[0].Command) {
			t.Errorf("%q: %s %s %q, want the first finding to decide", c.cmd, r.Decision, r.RuleID, r.Command)
		}
	}
}
