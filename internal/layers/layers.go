// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package layers holds the order of lite-sandbox's top-level folders:
// each is one layer, and a package imports only its own folder and the
// layers below it (AGENTS.md). Inside sandbox/ the same holds for its
// packages ([Sandbox]). Its test reads every production file's imports.
package layers

// Order lists the top-level folders from the bottom up. scripts/ (the
// benchmark and the lint tools) stands outside the order and may import
// any of them.
var Order = []string{"internal", "sandbox", "agents", "shims", "launch", "cmd"}

// Sandbox lists sandbox/'s packages from the bottom up, by their first
// folder below sandbox/: "" is the root, package sandbox (the Spec, its
// builders and the one prepare pipeline), with the parts it calls below
// it and a user of its Spec above. A package imports only its own folder
// and the levels below its own; packages on one level are independent of
// each other.
var Sandbox = [][]string{
	{"confine"}, // the in-sandbox step, linked alone into the shim binary
	{"egress", "fakefs", "git", "gocacheprog", "guard", "probe", "settings", "worker"}, // parts (fakefs: for tests only)
	{""},
	{"pathjudge"}, // reads a Spec: the agents' file tools judged by the sandbox's policy
}
