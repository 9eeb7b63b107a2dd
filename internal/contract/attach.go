// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package contract

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrInsecure is wrapped by [Attach] (and the launcher's Open) when a
// directory they would trust is not private to the current user: another
// user could then plant a socket, a policy or a link to another binary.
var ErrInsecure = errors.New("not a private directory of the current user")

// Attached is a session as the shim sees it.
type Attached struct {
	Dir        string
	Socket     string
	PolicyTOML []byte
	Meta       json.RawMessage
}

// DecodeMeta decodes session.json into v.
func (a *Attached) DecodeMeta(v any) error {
	if err := json.Unmarshal(a.Meta, v); err != nil {
		return fmt.Errorf("session %s: %s: %w", a.Dir, MetaName, err)
	}
	return nil
}

// Attach reads the session in dir, as the shim does with $LITE_SANDBOX_SESSION.
// The directory must be absolute, a real directory (not a symlink), owned
// by the current user and of mode 0700, else the error wraps
// [ErrInsecure]: the environment is the agent's, and a planted directory
// would choose the policy and the socket the shim trusts.
func Attach(dir string) (*Attached, error) {
	if !filepath.IsAbs(dir) {
		return nil, fmt.Errorf("session %q: not an absolute path", dir)
	}
	dir = filepath.Clean(dir)
	if err := CheckPrivate(dir, true); err != nil {
		return nil, fmt.Errorf("session %s: %w", dir, err)
	}
	pol, err := os.ReadFile(filepath.Join(dir, PolicyName))
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", dir, err)
	}
	meta, err := os.ReadFile(filepath.Join(dir, MetaName))
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", dir, err)
	}
	return &Attached{Dir: dir, Socket: filepath.Join(dir, SocketName), PolicyTOML: pol, Meta: meta}, nil
}
