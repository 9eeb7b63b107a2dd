// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package pi

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// mergeAuth is what of Pi's auth.json comes back from the ring (escape
// class 55). The file maps a provider to its credential, which Pi's own
// login writes (Pi 0.x, core/auth-storage.js and the /login dialog):
// {"type": "api_key", "key": K} or {"type": "oauth", "access", "refresh",
// "expires", ...}. Pi resolves an api_key's key with resolveConfigValue,
// which runs a value starting with "!" as a shell command at the next
// start: so the file comes back only when every entry that changed is
// what a login writes, every string a plain token; otherwise the host's
// file stays whole. A removed entry (a logout) is removed.
func mergeAuth(before, after []byte) ([]byte, error) {
	old := map[string]any{}
	if before != nil {
		var err error
		if old, err = agents.ParseJSONObject(before); err != nil {
			return nil, fmt.Errorf("the host's auth.json is not a JSON object: %w", err)
		}
	}
	now, err := agents.ParseJSONObject(after)
	if err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	var refused []string
	for p, v := range now {
		if !reflect.DeepEqual(old[p], v) && !loginEntry(v) {
			refused = append(refused, p)
		}
	}
	if len(refused) > 0 {
		return nil, fmt.Errorf("the credentials of %q are not what Pi's login writes (a key Pi would run, or not a plain token)", refused)
	}
	if before != nil && reflect.DeepEqual(old, now) {
		return before, nil
	}
	out := now
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// loginEntry says whether v is a credential as Pi's login writes it:
// an api_key with a plain key, or oauth whose values are plain tokens,
// numbers or booleans.
func loginEntry(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	switch m["type"] {
	case "api_key":
		k, ok := m["key"].(string)
		return ok && len(m) == 2 && agents.PlainToken(k)
	case "oauth":
		for _, x := range m {
			switch x := x.(type) {
			case string:
				if !agents.PlainToken(x) {
					return false
				}
			case json.Number, bool:
			default:
				return false
			}
		}
		return true
	}
	return false
}
