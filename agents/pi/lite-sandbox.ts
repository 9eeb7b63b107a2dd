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
//
// It also guards pi's file tools (read, write, edit, ls, find, grep) with
// lite-sandbox's path judge, `<lite-sandbox> hook pi` run through the
// session's shim, so that the session's judge answers it (no
// lite-sandbox process per call): a refused path blocks the call and the
// model gets the judge's one-line reason. A throwing tool_call handler blocks too, so any
// failure of the check fails closed. The agent ring is the boundary;
// this explains (grep and find spawn rg and fd themselves, so their
// search path is judged before they start).
//
// In the TUI, a command of an `ask` rule is put to the person first, on
// the launcher's own confirm line (askFirst; docs/validator.md §8).
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { createBashToolDefinition, createLocalBashOperations } from "@mariozechner/pi-coding-agent";
import { execFileSync } from "node:child_process";

// access is what each file tool does with its path.
const access: Record<string, "read" | "search" | "write"> = {
	read: "read", write: "write", edit: "write", ls: "search", find: "search", grep: "search",
};

// shellQuote quotes s for the shim's parser as one word.
function shellQuote(s: string): string {
	return "'" + s.replace(/'/g, "'\\''") + "'";
}

// askFirst tells the session's judge, through the shim, that Pi is
// about to run command (docs/validator.md §8): when an ask rule holds it
// back, the launcher asks the person on its own confirm line while this
// waits, and the judge answers {answer: "yes"} (the shim lets this one
// command through) or {answer: "no", message}. It answers nothing
// itself. A failure asks nothing, and the shim then judges the command
// as any other (refused, or waiting for `lite-sandbox approve`).
function askFirst(shim: string, exe: string, command: string, cwd: string): { answer: string; message: string } {
	try {
		const out = execFileSync(shim, ["-c", shellQuote(exe) + " hook ask"], {
			input: JSON.stringify({ command, cwd }),
			encoding: "utf8",
			// Longer than the confirm line waits (4 minutes).
			timeout: 300000,
			cwd,
			stdio: ["pipe", "pipe", "pipe"],
		});
		const v = JSON.parse(out);
		return { answer: String(v.answer || ""), message: String(v.message || "") };
	} catch {
		return { answer: "", message: "" };
	}
}

// judge asks the session's judge, through the shim, about one path; it
// returns the refusal's reason, or "" when allowed, and throws when it
// cannot tell.
function judge(shim: string, exe: string, a: string, p: string, cwd: string): string {
	const out = execFileSync(shim, ["-c", shellQuote(exe) + " hook pi"], {
		input: JSON.stringify({ access: a, path: p.startsWith("@") ? p.slice(1) : p, cwd }),
		encoding: "utf8",
		timeout: 15000,
		stdio: ["pipe", "pipe", "pipe"],
	});
	const v = JSON.parse(out);
	if (v.allowed === true) return "";
	return String(v.reason || "lite-sandbox: the path was refused");
}

export default function (pi: ExtensionAPI) {
	const shim = process.env.LITE_SANDBOX_SHIM;
	if (!shim) {
		// Fail closed: without the shim the built-in tool would run
		// commands unsandboxed.
		throw new Error("lite-sandbox: LITE_SANDBOX_SHIM is not set; start pi with `lite-sandbox launch pi`");
	}
	const exe = process.env.LITE_SANDBOX_EXE;
	if (!exe) {
		throw new Error("lite-sandbox: LITE_SANDBOX_EXE is not set; start pi with `lite-sandbox launch pi`");
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

	pi.on("tool_call", async (event: any, ctx: any) => {
		// The question is asked here, not in the tool's execute: Pi runs
		// tool_call handlers one at a time but the calls of one reply at
		// once, and the questions are asked in turn.
		if (event.toolName === "bash" && ctx && ctx.hasUI) {
			const command = String((event.input || {}).command || "");
			const q = askFirst(shim, exe, command, ctx.cwd || process.cwd());
			if (q.answer === "no") {
				return { block: true, reason: q.message };
			}
			return undefined;
		}
		const a = access[event.toolName];
		if (!a) return undefined;
		const input = event.input || {};
		const paths: string[] = [];
		if (typeof input.path === "string" && input.path !== "") paths.push(input.path);
		else if (a === "search") paths.push(".");
		else return { block: true, reason: `lite-sandbox: a ${event.toolName} call without a path; refused` };
		// find takes its base directory from an absolute pattern.
		if (event.toolName === "find" && typeof input.pattern === "string" && /^[\/~]/.test(input.pattern)) {
			const m = input.pattern.match(/^[^*?[{]*\//);
			paths.push(m ? m[0] : "/");
		}
		const cwd = (ctx && ctx.cwd) || process.cwd();
		for (const p of paths) {
			const reason = judge(shim, exe, a, p, cwd);
			if (reason) return { block: true, reason };
		}
		return undefined;
	});
}
