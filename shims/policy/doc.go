// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package policy is lite-sandbox's one policy model: the TOML schema, the
// embedded default, and the layering of the user's and the project's
// files (the project's may only tighten). The sandbox and the validator
// both read their settings from a [Policy], so the two never drift.
package policy
