// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package settings

import (
	"strings"
	"testing"
)

func TestStripURLCredentials(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"https://proxy.golang.org,direct":                        "https://proxy.golang.org,direct",
		"https://user:pw@goproxy.corp/,https://proxy.golang.org": "https://goproxy.corp/,https://proxy.golang.org",
		"https://ghp_TOKEN@github.com/x":                         "https://github.com/x",
		"https://u:p@a.example/simple https://v:q@b.example/s":   "https://a.example/simple https://b.example/s",
		"HTTP://u:p@a.example|https://b.example":                 "HTTP://a.example|https://b.example",
		"socks5h://u:p@127.0.0.1:1080":                           "socks5h://127.0.0.1:1080",
		"ssh://git@github.com/x.git":                             "ssh://git@github.com/x.git",
		"git@github.com:x/y.git":                                 "git@github.com:x/y.git",
		"user@example.com":                                       "user@example.com",
		"https://example.com/@scope/pkg":                         "https://example.com/@scope/pkg",
	} {
		if got := StripURLCredentials(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

func TestGoEnvFile(t *testing.T) {
	t.Parallel()
	user := "GOPRIVATE=corp.example/*\nGOPROXY=https://u:secret@goproxy.corp,direct\nGOFLAGS=-mod=mod\nGOAUTH=git /src\n# c\n\nGONOSUMDB=corp.example\n"
	for _, tc := range []struct {
		name, first, env, want string
	}{
		{"file's proxy", "", "", "GOPROXY=https://goproxy.corp,direct\n"},
		{"download cache first", "file:///h/dl", "", "GOPROXY=file:///h/dl,https://goproxy.corp,direct\n"},
		{"process's proxy wins", "file:///h/dl", "https://p:q@other.example", "GOPROXY=file:///h/dl,https://other.example\n"},
	} {
		got, dropped := GoEnvFile([]byte(user), tc.first, tc.env)
		want := tc.want + "GOPRIVATE=corp.example/*\nGOFLAGS=-mod=mod\nGONOSUMDB=corp.example\n"
		if string(got) != want {
			t.Errorf("%s:\n%s\nwant\n%s", tc.name, got, want)
		}
		if strings.Contains(string(got), "secret") || strings.Contains(string(got), "GOAUTH") {
			t.Errorf("%s: a secret passed: %s", tc.name, got)
		}
		if j := strings.Join(dropped, ","); !strings.Contains(j, "GOAUTH") || !strings.Contains(j, "the credentials in GOPROXY") {
			t.Errorf("%s: dropped = %v", tc.name, dropped)
		}
	}
	if got, _ := GoEnvFile(nil, "", ""); string(got) != "GOPROXY=https://proxy.golang.org,direct\n" {
		t.Errorf("no user file: %q", got)
	}
}

func TestNpmrcFile(t *testing.T) {
	t.Parallel()
	user := `; comment
# comment
registry=https://npm.corp.example/
@corp:registry = https://u:CANARY1@npm.corp.example/scoped/
//npm.corp.example/:_authToken=CANARY2
//npm.corp.example/:_auth=CANARY3
_authToken=CANARY4
_auth = CANARY5
_password=CANARY6
username=me
@corp:_authToken=CANARY7
certfile=/home/me/cert.pem
keyfile=/home/me/key.pem
key="-----BEGIN PRIVATE KEY-----CANARY8"
save-exact=true
fund=false
`
	got, dropped := NpmrcFile([]byte(user))
	want := "registry=https://npm.corp.example/\n@corp:registry=https://npm.corp.example/scoped/\nsave-exact=true\nfund=false\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if strings.Contains(string(got), "CANARY") {
		t.Errorf("a secret passed: %s", got)
	}
	for _, k := range []string{"//npm.corp.example/:_authToken", "_auth", "certfile", "keyfile", "key", "@corp:_authToken", "the credentials in @corp:registry"} {
		if !strings.Contains(","+strings.Join(dropped, ",")+",", ","+k+",") {
			t.Errorf("dropped %v lacks %s", dropped, k)
		}
	}
	for _, d := range dropped {
		if strings.Contains(d, "CANARY") {
			t.Errorf("dropped names a value: %s", d)
		}
	}
}

func TestUserSettingsPaths(t *testing.T) {
	t.Parallel()
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, tc := range []struct {
		got, want string
	}{
		{UserGoEnv("/h", env()), "/h/.config/go/env"},
		{UserGoEnv("/h", env("XDG_CONFIG_HOME", "/x")), "/x/go/env"},
		{UserGoEnv("/h", env("GOENV", "/g/env", "XDG_CONFIG_HOME", "/x")), "/g/env"},
		{UserGoEnv("/h", env("GOENV", "off")), ""},
		{UserNpmrc("/h", env()), "/h/.npmrc"},
		{UserNpmrc("/h", env("NPM_CONFIG_USERCONFIG", "/n/rc")), "/n/rc"},
	} {
		if tc.got != tc.want {
			t.Errorf("%q, want %q", tc.got, tc.want)
		}
	}
}
