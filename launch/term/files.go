// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package term

import (
	"context"
	"os"
)

type filesKey struct{}

// WithFiles marks ctx so that the program [Run] (or the launcher's plain
// start) runs gets files as its descriptors from 3 up: the judge's
// broker of the Landlock agent ring (#28). The leader passes them on
// (it seals nothing: it is dispatched before the CLI's start).
func WithFiles(ctx context.Context, files []*os.File) context.Context {
	return context.WithValue(ctx, filesKey{}, files)
}

// Files returns what [WithFiles] put in ctx.
func Files(ctx context.Context) []*os.File {
	f, _ := ctx.Value(filesKey{}).([]*os.File)
	return f
}
