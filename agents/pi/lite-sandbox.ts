// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT
//
// Written by `lite-sandbox launch pi` into the session directory and
// loaded with `pi --no-extensions -e <this file>`. It replaces pi's bash
// tool (and the `!` / `!!` user commands) with the same tool running on
// the session's shim, so that every command is validated and runs in the
// session's sandbox. Extensions given with -e load first and the first
// registration of a tool name wins, so no later extension can take the
// name back.
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { createBashToolDefinition, createLocalBashOperations } from "@mariozechner/pi-coding-agent";

export default function (pi: ExtensionAPI) {
	const shim = process.env.LITE_SANDBOX_SHIM;
	if (!shim) {
		// Fail closed: without the shim the built-in tool would run
		// commands unsandboxed.
		throw new Error("lite-sandbox: LITE_SANDBOX_SHIM is not set; start pi with `lite-sandbox launch pi`");
	}
	// shellPath is passed explicitly: a project's .pi/settings.json
	// shellPath must not matter.
	const base = createBashToolDefinition(process.cwd(), { shellPath: shim });
	pi.registerTool({
		...base,
		async execute(id, params, signal, onUpdate, ctx) {
			// The session's cwd can change between calls.
			const tool = createBashToolDefinition(ctx.cwd, { shellPath: shim });
			return tool.execute(id, params, signal, onUpdate, ctx);
		},
	});
	pi.on("user_bash", () => ({ operations: createLocalBashOperations({ shellPath: shim }) }));
}
