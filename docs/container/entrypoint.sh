#!/bin/sh
# Copyright 2026 The lite-sandbox Authors.
# SPDX-License-Identifier: MIT
#
# The entrypoint of the container recipe (docs/container.md): report the
# sandbox, then run the agent (the container's arguments: an agent name
# and its arguments, `exec -- PROGRAM ...`, or `--dry-run AGENT`) under
# `lite-sandbox launch` in mode on, so that nothing runs unsandboxed: in
# a default container bwrap cannot create a sandbox and the Landlock
# backend is used (LITE_SANDBOX_BACKEND=landlock in the Containerfile).
# agents/e2etest/container_test.go runs this very file in a simulated
# container.
set -eu
lite-sandbox doctor >&2
exec lite-sandbox launch --sandbox on "$@"
