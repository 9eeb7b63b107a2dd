// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package layers holds the order of lite-sandbox's top-level folders:
// each is one layer, and a package imports only its own folder and the
// layers below it (AGENTS.md). Its test reads every production file's
// imports.
package layers

// Order lists the top-level folders from the bottom up. scripts/ (the
// benchmark and the lint tools) stands outside the order and may import
// any of them.
var Order = []string{"internal", "sandbox", "agents", "shims", "launch", "cmd"}
