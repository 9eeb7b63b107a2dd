// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
)

// TestEnv: the proxy variables carry the command's identifier, the
// command's own proxy values are replaced, JAVA_TOOL_OPTIONS keeps the
// command's options and gains the proxy properties, and Unset undoes it.
func TestEnv(t *testing.T) {
	in := []string{"PATH=/bin", "HTTPS_PROXY=http://evil.test:1", "JAVA_TOOL_OPTIONS=-Xmx1g"}
	out := egress.Env(in, "abc123")
	get := func(env []string, k string) string {
		for _, kv := range env {
			if v, ok := strings.CutPrefix(kv, k+"="); ok {
				return v
			}
		}
		return ""
	}
	for k, want := range map[string]string{
		"HTTPS_PROXY": "http://abc123:x@127.0.0.1:3128", "http_proxy": "http://abc123:x@127.0.0.1:3128",
		"ALL_PROXY": "socks5h://abc123:x@127.0.0.1:1080", "npm_config_https_proxy": "http://abc123:x@127.0.0.1:3128",
		"CLOUDSDK_PROXY_ADDRESS": "127.0.0.1", "CLOUDSDK_PROXY_PORT": "3128", "NODE_USE_ENV_PROXY": "1",
		"GLOBAL_AGENT_HTTP_PROXY": "http://abc123:x@127.0.0.1:3128", "PATH": "/bin",
		"DOCKER_HTTPS_PROXY": "http://abc123:x@127.0.0.1:3128", "grpc_proxy": "http://abc123:x@127.0.0.1:3128",
		"GIT_HTTP_PROXY_AUTHMETHOD": "basic",
	} {
		if got := get(out, k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if n := slices.IndexFunc(out, func(kv string) bool { return strings.Contains(kv, "evil.test") }); n >= 0 {
		t.Errorf("the command's own proxy survived: %s", out[n])
	}
	jto := get(out, "JAVA_TOOL_OPTIONS")
	if !strings.HasPrefix(jto, "-Xmx1g ") || !strings.Contains(jto, "-Dhttps.proxyHost=127.0.0.1 -Dhttps.proxyPort=3128") {
		t.Errorf("JAVA_TOOL_OPTIONS = %q", jto)
	}
	if again := get(egress.Env(out, "abc123"), "JAVA_TOOL_OPTIONS"); again != jto {
		t.Errorf("Env twice: JAVA_TOOL_OPTIONS = %q", again)
	}
	back := egress.Unset(out)
	if get(back, "HTTPS_PROXY") != "" || get(back, "JAVA_TOOL_OPTIONS") != "-Xmx1g" {
		t.Errorf("Unset: %q", back)
	}
	// Without an identifier (or with one that could forge a URL), no
	// credentials.
	for _, id := range []string{"", "a@b", "x:y"} {
		if got := get(egress.Env(nil, id), "HTTP_PROXY"); got != "http://127.0.0.1:3128" {
			t.Errorf("id %q: HTTP_PROXY = %q", id, got)
		}
	}
}
