// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package policy

import "strings"

// HostIPCEnv names the variables that lead a program to the host's
// IPC endpoints: the ssh agent, the user's tmux server, the D-Bus
// session bus, the display servers, the user's runtime directory. The
// agent ring has none of them (escape class 44), so they are dropped
// from its environment unless agent.env keeps them.
var HostIPCEnv = []string{
	"SSH_AUTH_SOCK", "SSH_AGENT_PID", "GPG_AGENT_INFO", "TMUX", "TMUX_PANE", "STY",
	"DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY",
	"XDG_RUNTIME_DIR", "KITTY_LISTEN_ON", "WEZTERM_UNIX_SOCKET", "NVIM", "NVIM_LISTEN_ADDRESS",
}

// AgentEnv returns the part of env the agent process itself gets in the
// ring: everything but the names sandbox.secret_env matches and the
// host-IPC names, except those the agent logs in with (login, globs
// named by its adapter) and those the user keeps with agent.env. A
// secret the agent does not need (GITHUB_TOKEN, AWS_*) thus reaches
// neither its file tools (/proc/self/environ) nor what it starts
// (escape classes 3 and 45).
func (p *Policy) AgentEnv(env, login []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			continue
		}
		drop := matchAny(p.Sandbox.SecretEnv, name) || matchAny(HostIPCEnv, name)
		if drop && !matchAny(login, name) && !matchAny(p.Agent.Env, name) {
			continue
		}
		out = append(out, kv)
	}
	return out
}
