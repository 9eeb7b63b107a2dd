// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"github.com/lite-sandbox/lite-sandbox/shims/config"
	"github.com/lite-sandbox/lite-sandbox/shims/validator"
)

// load loads the configuration and compiles its validator, so that a
// rule whose examples fail stops every command, not only the shim.
func load(o config.Options) (*config.Config, *validator.Validator, error) {
	c, err := config.Load(o)
	if err != nil {
		return nil, nil, err
	}
	v, err := c.Validator()
	if err != nil {
		return nil, nil, err
	}
	return c, v, nil
}
