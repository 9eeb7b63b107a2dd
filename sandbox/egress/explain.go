// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Explain returns at most max explanation lines for a failed command
// with network = "allow": when the sandbox's bridge is gone, that line
// alone; otherwise its own refusals and failed connections (one
// line per destination, naming the policy key that would let it
// through); when it has no connection of its own on record at all,
// those without a command identifier in its time window (a tool that
// drops proxy credentials); with no connection
// at all, the line for a program that ignored the proxy variables (it
// got ENETUNREACH) or for ssh. cmdline is the command as judged; only
// its words are read. Both code paths of the shim call it: the
// per-command proxy ([ActivityOf] over its decisions) and a session's
// judge ([Recent.Activity], in the launcher that serves its proxy).
func Explain(a Activity, cmdline string, max int) []string {
	if a.Stopped != 0 {
		return []string{stoppedLine(a.Stopped)}
	}
	if a.BridgeDown {
		return []string{bridgeDownLine}
	}
	out := lines(a.Own, max)
	if len(a.Own) == 0 {
		// Only a command with no connection of its own on record may
		// be told those without an identifier: one whose connections
		// were all allowed failed otherwise, and another command's
		// refusal in the same time window is not its news (#27).
		out = lines(a.Unattributed, max)
	}
	if len(out) > 0 || len(a.Own) > 0 || len(a.Unattributed) > 0 {
		return out
	}
	if l := ignoredProxyLine(cmdline); l != "" {
		out = append(out, l)
	}
	if usesSSH(cmdline) && len(out) < max {
		out = append(out, `lite-sandbox: git over ssh and ssh are not available with sandbox.network = "allow" (only HTTP(S) and SOCKS5 pass the proxy); use an https:// remote (git -c url."https://github.com/".insteadOf=git@github.com: ...)`)
	}
	return out
}

// lines explains the refused and failed connections of ds.
func lines(ds []Decision, max int) []string {
	var out []string
	seen := map[string]bool{}
	for _, d := range ds {
		hp := HostPort(d.Host, d.Port)
		if d.Result == ResultAllow || seen[hp] || len(out) >= max {
			continue
		}
		seen[hp] = true
		out = append(out, refusalLine(d))
	}
	return out
}

// refusalLine is the one line for a refused or failed connection: what,
// why, and the change that would allow it (none for what no key
// allows: a malformed name, an allowed name that does not resolve).
func refusalLine(d Decision) string {
	hp := HostPort(d.Host, d.Port)
	if d.Host == NoTarget {
		return "lite-sandbox: the egress proxy refused a connection before it named a target: " + d.Reason
	}
	if d.Result == ResultFailed && d.Key == keyUpstreamProxy {
		return fmt.Sprintf(`lite-sandbox: network access to %s failed: %s (it is allowed here; the upstream proxy wants its user and password: sandbox.upstream_proxy = "http://USER:PASSWORD@HOST:PORT" in your own config, or HTTPS_PROXY of the launcher with them; they stay on the host side)`, hp, d.Reason)
	}
	if d.Result == ResultFailed {
		return fmt.Sprintf("lite-sandbox: network access to %s failed: %s (it is allowed; check the name and that this host reaches it)", hp, d.Reason)
	}
	fix := "no setting allows it"
	switch d.Key {
	case keyAllowDomains:
		fix = fmt.Sprintf(`to allow: sandbox.allow_domains += ["%s"] in your config, or --allow-domain %s`, d.Host, d.Host)
	case keyDenyDomains:
		fix = "to allow: remove it from sandbox.deny_domains"
	case keyAllowAddresses:
		fix = "to allow: add the address to sandbox.allow_addresses in your own config (not a project file)"
		if a, _, ok := strings.Cut(strings.TrimPrefix(d.Reason, "it resolves to "), ","); ok {
			fix = fmt.Sprintf(`to allow: sandbox.allow_addresses += ["%s"] in your own config (not a project file)`, HostPort(a, d.Port))
		}
		if rest, ok := strings.CutPrefix(d.Reason, "it is "); ok {
			// A special address named as the target: both keys, the
			// address first (allow_domains alone lets nothing through).
			a, _, _ := strings.Cut(rest, ",")
			fix = fmt.Sprintf(`to allow: sandbox.allow_addresses += ["%s"] and sandbox.allow_domains += ["%s"], both in your own config (not a project file)`, HostPort(a, d.Port), a)
		}
	case keyAllowPorts:
		fix = fmt.Sprintf("to allow: sandbox.allow_ports += [%d] in your own config (not a project file)", d.Port)
	}
	return fmt.Sprintf("lite-sandbox: network access to %s was refused: %s (%s)", hp, d.Reason, fix)
}

// ignoredHints maps programs known to ignore HTTP(S)_PROXY (or to
// need more than the variables) to how to point them at the proxy.
var ignoredHints = map[string]string{
	"node":   "Node's fetch reads the proxy variables only from Node 24 (NODE_USE_ENV_PROXY=1 is set); on Node 20 and 22 install undici's EnvHttpProxyAgent (setGlobalDispatcher(new EnvHttpProxyAgent())) or load global-agent (GLOBAL_AGENT_HTTP_PROXY is set), or use http.request with an agent for http://127.0.0.1:3128",
	"java":   "the JVM reads JAVA_TOOL_OPTIONS (-Dhttps.proxyHost=127.0.0.1 -Dhttps.proxyPort=3128 are set); a tool that replaces it, or Maven's settings.xml <proxies> / Gradle's gradle.properties systemProp.https.proxyHost, must name 127.0.0.1:3128",
	"ping":   "ping (ICMP) cannot pass the proxy: only TCP through HTTP(S) CONNECT or SOCKS5 leaves the sandbox",
	"dns":    "there is no DNS inside the sandbox: names resolve at the proxy (curl, or socks5h://127.0.0.1:1080)",
	"script": "a socket the program opens itself (Python's socket module, Perl's IO::Socket, Ruby's TCPSocket) connects directly, which the sandbox does not route: go through SOCKS5 at 127.0.0.1:1080 (ALL_PROXY=socks5h://... is set; in Python the PySocks package: socks.set_default_proxy(socks.SOCKS5, \"127.0.0.1\", 1080)), or use an HTTP client that reads the proxy variables (urllib, requests)",
	"raw":    "a raw TCP connection must go through SOCKS5: nc -X 5 -x 127.0.0.1:1080 HOST PORT, or socat - SOCKS5:127.0.0.1:HOST:PORT,socksport=1080",
}

var ignoredPrograms = map[string]string{
	"node": "node", "nodejs": "node", "deno": "node", "java": "java", "mvn": "java", "mvnw": "java",
	"gradle": "java", "gradlew": "java", "sbt": "java", "kotlin": "java", "ping": "ping", "ping6": "ping",
	"dig": "dns", "nslookup": "dns", "host": "dns", "nc": "raw", "ncat": "raw", "netcat": "raw",
	"socat": "raw", "telnet": "raw",
}

// ignoredProxyLine is the explanation for a command none of whose
// connections reached the proxy although it names a program that
// needs the network: inside the sandbox every address but loopback is
// unreachable (ENETUNREACH, "network is unreachable").
func ignoredProxyLine(cmdline string) string {
	const head = "lite-sandbox: no connection of this command reached the proxy: a program that ignores the proxy variables gets \"network is unreachable\" (ENETUNREACH), since only 127.0.0.1:3128 (HTTP) and 127.0.0.1:1080 (SOCKS5) lead out; "
	for _, f := range strings.Fields(cmdline) {
		kind := ignoredPrograms[filepath.Base(strings.Trim(f, `'"();&|`))]
		if strings.Contains(f, "/dev/tcp/") || strings.Contains(f, "/dev/udp/") {
			kind = "raw" // bash's own sockets
		}
		if scriptLanguage(f) && strings.Contains(strings.ToLower(cmdline), "socket") {
			// An interpreter whose code opens a socket of its own:
			// its HTTP clients read the variables, its sockets do not.
			kind = "script"
		}
		if hint, ok := ignoredHints[kind]; ok {
			return head + hint
		}
	}
	return ""
}

// usesSSH tells whether a command line likely needed ssh: an scp-like or
// ssh:// git URL, or ssh itself.
func usesSSH(cmd string) bool {
	for _, f := range strings.Fields(cmd) {
		f = strings.Trim(f, `'"`)
		switch {
		case f == "ssh" || f == "scp" || f == "sftp" || strings.HasSuffix(f, "/ssh"):
			return true
		case strings.HasPrefix(f, "ssh://") || strings.HasPrefix(f, "git+ssh://"):
			return true
		case strings.Contains(f, "@") && strings.Contains(f, ":") && !strings.Contains(f, "://"):
			return true
		}
	}
	// A configured ssh remote (git push) is not visible here; git prints
	// the hint itself through GIT_SSH_COMMAND (Env).
	return false
}

// scriptLanguage reports whether the word f runs Python, Perl or Ruby
// (python3, /usr/bin/python3.11, perl, ruby).
func scriptLanguage(f string) bool {
	b := filepath.Base(strings.Trim(f, `'"();&|`))
	for _, l := range []string{"python", "perl", "ruby"} {
		if rest, ok := strings.CutPrefix(b, l); ok && strings.Trim(rest, "0123456789.") == "" {
			return true
		}
	}
	return false
}
