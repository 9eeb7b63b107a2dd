// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"slices"
	"strconv"
	"strings"
)

// The bridge's ports on the sandbox's own loopback. They are fixed: the
// namespace is the sandbox's alone, so nothing else can hold them.
const (
	HTTPPort  = 3128
	SOCKSPort = 1080
)

// EnvSocket names the variable that tells `lite-sandbox __confine` to
// start the bridge to this proxy socket before it runs the command. It
// is removed from the command's environment.
const EnvSocket = "LITE_SANDBOX_EGRESS"

// BridgeCommand is the hidden subcommand that runs the bridge inside the
// sandbox: `lite-sandbox __egress-bridge SOCKET` with the listening
// sockets as descriptors 3 (HTTP) and 4 (SOCKS5).
const BridgeCommand = "__egress-bridge"

// sshHint is what git prints instead of connecting over ssh: ssh does
// not speak to an HTTP or SOCKS proxy by itself, and a ProxyCommand
// would give the sandbox a second way out that bypasses nothing but is
// not worth it: git over https carries the same repositories.
const sshHint = `lite-sandbox: git over ssh is not available with sandbox.network = "allow" (only HTTP(S) and SOCKS5 go through the proxy); use an https:// remote, for example git -c url.https://github.com/.insteadOf=git@github.com: ...`

// proxyNames are every variable Env sets; the command's own values are
// dropped first. JAVA_TOOL_OPTIONS is not among them: Env appends to
// the command's own value.
var proxyNames = []string{
	"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "FTP_PROXY", "RSYNC_PROXY",
	"http_proxy", "https_proxy", "all_proxy", "no_proxy", "ftp_proxy",
	"npm_config_proxy", "npm_config_https_proxy", "npm_config_noproxy",
	"YARN_HTTP_PROXY", "YARN_HTTPS_PROXY", "PIP_PROXY", "NODE_USE_ENV_PROXY",
	"GLOBAL_AGENT_HTTP_PROXY", "GLOBAL_AGENT_HTTPS_PROXY", "GLOBAL_AGENT_NO_PROXY",
	"CARGO_HTTP_PROXY", "HEX_HTTP_PROXY", "HEX_HTTPS_PROXY",
	"CLOUDSDK_PROXY_TYPE", "CLOUDSDK_PROXY_ADDRESS", "CLOUDSDK_PROXY_PORT",
	"DOCKER_HTTP_PROXY", "DOCKER_HTTPS_PROXY", "GRPC_PROXY", "grpc_proxy", "ELECTRON_GET_USE_PROXY",
	"GIT_SSH_COMMAND", "GIT_SSH", "GIT_PROXY_COMMAND", "GIT_HTTP_PROXY_AUTHMETHOD",
}

// javaProxy is what Env appends to JAVA_TOOL_OPTIONS: every JVM (Maven,
// Gradle and their daemons, sbt) reads it, and the JVM ignores
// HTTP(S)_PROXY. The JVM sends no proxy credentials from properties, so
// its connections carry no command identifier.
var javaProxy = "-Dhttp.proxyHost=127.0.0.1 -Dhttp.proxyPort=" + strconv.Itoa(HTTPPort) +
	" -Dhttps.proxyHost=127.0.0.1 -Dhttps.proxyPort=" + strconv.Itoa(HTTPPort) +
	" -Dhttp.nonProxyHosts=localhost|127.0.0.1|[::1]"

// Env returns env with the proxy variables of the sandbox's bridge for
// the command id ([NewCommandID]; "" for none): HTTP(S) through the HTTP
// port, ALL_PROXY as socks5h (names resolve at the proxy), the sandbox's
// own loopback direct, the tool-specific names, and git's ssh replaced
// by the hint. The identifier is the proxy user name (ident.go); the
// password is a placeholder so that no client prompts for one (git asks
// for a missing proxy password).
func Env(env []string, id string) []string {
	out := Unset(env)
	cred := ""
	if validID(id) {
		cred = id + ":x@"
	}
	hp := "127.0.0.1:" + strconv.Itoa(HTTPPort)
	httpURL := "http://" + cred + hp
	socksURL := "socks5h://" + cred + "127.0.0.1:" + strconv.Itoa(SOCKSPort)
	noProxy := "localhost,127.0.0.1,::1"
	for _, kv := range [][2]string{
		{"HTTP_PROXY", httpURL}, {"HTTPS_PROXY", httpURL}, {"ALL_PROXY", socksURL}, {"NO_PROXY", noProxy},
		{"FTP_PROXY", httpURL}, {"RSYNC_PROXY", hp},
		{"http_proxy", httpURL}, {"https_proxy", httpURL}, {"all_proxy", socksURL}, {"no_proxy", noProxy},
		{"ftp_proxy", httpURL},
		{"npm_config_proxy", httpURL}, {"npm_config_https_proxy", httpURL}, {"npm_config_noproxy", noProxy},
		{"YARN_HTTP_PROXY", httpURL}, {"YARN_HTTPS_PROXY", httpURL}, {"PIP_PROXY", httpURL},
		// Node 24 and later honour the variables only when asked to;
		// global-agent (Node 20 and 22) reads its own names.
		{"NODE_USE_ENV_PROXY", "1"},
		{"GLOBAL_AGENT_HTTP_PROXY", httpURL}, {"GLOBAL_AGENT_HTTPS_PROXY", httpURL}, {"GLOBAL_AGENT_NO_PROXY", noProxy},
		{"CARGO_HTTP_PROXY", httpURL}, {"HEX_HTTP_PROXY", httpURL}, {"HEX_HTTPS_PROXY", httpURL},
		// gcloud ignores HTTPS_PROXY.
		{"CLOUDSDK_PROXY_TYPE", "http"}, {"CLOUDSDK_PROXY_ADDRESS", "127.0.0.1"}, {"CLOUDSDK_PROXY_PORT", strconv.Itoa(HTTPPort)},
		// The names sandbox-runtime users know: Docker's build-time
		// proxy, gRPC (C core), Electron's downloads.
		{"DOCKER_HTTP_PROXY", httpURL}, {"DOCKER_HTTPS_PROXY", httpURL},
		{"GRPC_PROXY", httpURL}, {"grpc_proxy", httpURL}, {"ELECTRON_GET_USE_PROXY", "1"},
		// git (libcurl with any auth method) sends proxy credentials
		// only after a 407, which the proxy never sends: basic makes it
		// send the identifier with the first request.
		{"GIT_HTTP_PROXY_AUTHMETHOD", "basic"},
		// git runs this through sh with the host and command appended:
		// print the hint and fail as an unreachable remote would.
		{"GIT_SSH_COMMAND", "printf '%s\\n' '" + sshHint + "' >&2; exit 255; :"},
	} {
		out = append(out, kv[0]+"="+kv[1])
	}
	return withJavaProxy(out)
}

// withJavaProxy appends javaProxy to JAVA_TOOL_OPTIONS (once).
func withJavaProxy(env []string) []string {
	for i, kv := range env {
		if v, ok := strings.CutPrefix(kv, "JAVA_TOOL_OPTIONS="); ok {
			if !strings.Contains(v, javaProxy) {
				env[i] = strings.TrimSpace("JAVA_TOOL_OPTIONS=" + v + " " + javaProxy)
			}
			return env
		}
	}
	return append(env, "JAVA_TOOL_OPTIONS="+javaProxy)
}

// Unset returns env without every variable [Env] sets (and without
// Env's addition to JAVA_TOOL_OPTIONS).
func Unset(env []string) []string {
	out := slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(proxyNames, name)
	})
	for i, kv := range out {
		if v, ok := strings.CutPrefix(kv, "JAVA_TOOL_OPTIONS="); ok && strings.Contains(v, javaProxy) {
			out[i] = "JAVA_TOOL_OPTIONS=" + strings.TrimSpace(strings.ReplaceAll(v, javaProxy, ""))
		}
	}
	return out
}
