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
// dropped first.
var proxyNames = []string{
	"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "FTP_PROXY", "RSYNC_PROXY",
	"http_proxy", "https_proxy", "all_proxy", "no_proxy", "ftp_proxy",
	"npm_config_proxy", "npm_config_https_proxy", "npm_config_noproxy",
	"YARN_HTTP_PROXY", "YARN_HTTPS_PROXY", "PIP_PROXY", "NODE_USE_ENV_PROXY",
	"GIT_SSH_COMMAND", "GIT_SSH", "GIT_PROXY_COMMAND",
}

// Env returns env with the proxy variables of the sandbox's bridge:
// HTTP(S) through the HTTP port, ALL_PROXY as socks5h (names resolve at
// the proxy), the sandbox's own loopback direct, the usual tool-specific
// names, and git's ssh replaced by the hint.
func Env(env []string) []string {
	out := Unset(env)
	httpURL := "http://127.0.0.1:" + strconv.Itoa(HTTPPort)
	socksURL := "socks5h://127.0.0.1:" + strconv.Itoa(SOCKSPort)
	noProxy := "localhost,127.0.0.1,::1"
	for _, kv := range [][2]string{
		{"HTTP_PROXY", httpURL}, {"HTTPS_PROXY", httpURL}, {"ALL_PROXY", socksURL}, {"NO_PROXY", noProxy},
		{"FTP_PROXY", httpURL}, {"RSYNC_PROXY", "127.0.0.1:" + strconv.Itoa(HTTPPort)},
		{"http_proxy", httpURL}, {"https_proxy", httpURL}, {"all_proxy", socksURL}, {"no_proxy", noProxy},
		{"ftp_proxy", httpURL},
		{"npm_config_proxy", httpURL}, {"npm_config_https_proxy", httpURL}, {"npm_config_noproxy", noProxy},
		{"YARN_HTTP_PROXY", httpURL}, {"YARN_HTTPS_PROXY", httpURL}, {"PIP_PROXY", httpURL},
		// Node 24 and later honour the variables only when asked to.
		{"NODE_USE_ENV_PROXY", "1"},
		// git runs this through sh with the host and command appended:
		// print the hint and fail as an unreachable remote would.
		{"GIT_SSH_COMMAND", "printf '%s\\n' '" + sshHint + "' >&2; exit 255; :"},
	} {
		out = append(out, kv[0]+"="+kv[1])
	}
	return out
}

// Unset returns env without every variable [Env] sets.
func Unset(env []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(proxyNames, name)
	})
}
