// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package forward

import "time"

var testStart = time.Now()
