// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package settings filters the user's tool settings for the sandbox
// (issue 31, finding 2), a copy with the secrets taken out: $HOME is an empty
// directory inside, so without these the settings a user made with
// `go env -w` (GOPRIVATE, GOPROXY, GOFLAGS ...) and in ~/.npmrc
// (registry=) would silently not apply: a private module path would go
// to the public proxy and checksum database, a private registry fall
// back to the public one. So the sandbox sees a copy of each, written
// below the workspace's cache layer directory and bound read-only at the
// path the tool reads, with the secrets filtered out: credentials in URLs
// (https://user:password@host), npm's auth keys (_authToken, _auth,
// _password, username, every //host/: key, certfile and keyfile, key),
// Go's GOAUTH (a command that fetches credentials). The host's files
// themselves stay hidden (~/.npmrc is in sandbox.deny, escape class 3).
// docs/configuration.md, "Your tools' settings". The user's global git
// configuration is filtered the same way, by an allow-list of keys
// (git.go).
//
// This package reads and filters; the sandbox package writes the copies
// (caches_linux.go, gitglobal.go) and binds them (caches.go,
// settingsMounts; gitHomeMounts).
package settings

import (
	"bufio"
	"bytes"
	"path"
	"regexp"
	"slices"
	"strings"
)

// urlCreds matches the userinfo of a URL with a scheme that sends it as
// a credential (http(s), socks, ftp): "https://user:pw@" or
// "https://token@".
var urlCreds = regexp.MustCompile(`(?i)\b((?:https?|socks[45]h?|ftp)://)[^/@\s,|"']+@`)

// StripURLCredentials removes the user and password of every http(s),
// socks and ftp URL in s (a list such as GOPROXY's, a single URL such as
// PIP_INDEX_URL), leaving the URL: the tool then fails to authenticate
// (a clear error) rather than falling back to a public index.
func StripURLCredentials(s string) string {
	if !strings.Contains(s, "@") {
		return s
	}
	return urlCreds.ReplaceAllString(s, "$1")
}

// UserGoEnv is where the host's go reads its environment file, as
// `go env GOENV` says: $GOENV, else $XDG_CONFIG_HOME/go/env, else
// ~/.config/go/env ("" when off or unknown).
func UserGoEnv(home string, getenv func(string) string) string {
	if g := getenv("GOENV"); g != "" {
		if g == "off" || !path.IsAbs(g) {
			return ""
		}
		return path.Clean(g)
	}
	if x := getenv("XDG_CONFIG_HOME"); path.IsAbs(x) {
		return path.Join(x, "go", "env")
	}
	if home == "" {
		return ""
	}
	return path.Join(home, ".config", "go", "env")
}

// UserNpmrc is the host's per-user npm configuration:
// $NPM_CONFIG_USERCONFIG, else ~/.npmrc.
func UserNpmrc(home string, getenv func(string) string) string {
	for _, n := range []string{"NPM_CONFIG_USERCONFIG", "npm_config_userconfig"} {
		if v := getenv(n); path.IsAbs(v) {
			return path.Clean(v)
		}
	}
	if home == "" {
		return ""
	}
	return path.Join(home, ".npmrc")
}

// goEnvDropped are go env keys that never pass: GOAUTH runs a command
// (or reads .netrc) for credentials.
var goEnvDropped = []string{"GOAUTH"}

// GoEnvFile merges the user's go env file (user, possibly empty) with
// what the sandbox must set: GOPROXY starts with first (the host's
// download cache, "" for none), then the user's proxy (the process's
// GOPROXY, else the file's, else Go's default). Every other setting is
// kept; credentials in URLs are removed, GOAUTH is dropped (listed in
// dropped). Variables set in the command's environment still win over
// the file, as for go env -w.
func GoEnvFile(user []byte, first, envProxy string) (content []byte, dropped []string) {
	var b bytes.Buffer
	proxy := envProxy
	sc := bufio.NewScanner(bytes.NewReader(user))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		k, v, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if slices.Contains(goEnvDropped, k) {
			dropped = append(dropped, k)
			continue
		}
		clean := StripURLCredentials(v)
		if clean != v {
			dropped = append(dropped, "the credentials in "+k)
		}
		if k == "GOPROXY" {
			if proxy == "" {
				proxy = clean
			}
			continue
		}
		b.WriteString(k + "=" + clean + "\n")
	}
	proxy = StripURLCredentials(proxy)
	if proxy == "" {
		proxy = "https://proxy.golang.org,direct"
	}
	if first != "" {
		proxy = first + "," + proxy
	}
	return append([]byte("GOPROXY="+proxy+"\n"), b.Bytes()...), dropped
}

// NpmrcFile is the user's npmrc without its secrets: auth keys, keys
// scoped to a registry ("//host/:..."), client certificates; credentials
// in URLs removed. Comments and blank lines go too. dropped names the
// keys left out (never their values).
func NpmrcFile(user []byte) (content []byte, dropped []string) {
	var b bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(user))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		k, v, _ := strings.Cut(line, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if npmSecretKey(k) {
			dropped = append(dropped, k)
			continue
		}
		clean := StripURLCredentials(v)
		if clean != v {
			dropped = append(dropped, "the credentials in "+k)
		}
		b.WriteString(k + "=" + clean + "\n")
	}
	return b.Bytes(), dropped
}

// npmSecretKey reports whether an npmrc key holds or points at a
// credential. Every key scoped to a registry URL ("//host/:_authToken",
// "//host/:username") is one of npm's per-registry auth settings.
func npmSecretKey(k string) bool {
	if strings.HasPrefix(k, "//") || strings.Contains(k, ":_") {
		return true
	}
	name := strings.ToLower(strings.TrimSuffix(k, "[]"))
	if i := strings.LastIndex(name, ":"); i >= 0 {
		name = name[i+1:] // @scope:_authToken and the like
	}
	switch name {
	case "_authtoken", "_auth", "_password", "username", "password", "email",
		"certfile", "keyfile", "cert", "key", "otp", "always-auth", "token":
		return true
	}
	return strings.Contains(name, "token") || strings.Contains(name, "secret")
}
