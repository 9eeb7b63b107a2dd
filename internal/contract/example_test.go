// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package contract_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
)

// The shim's side of the contract: attach to the session named by
// $LITE_SANDBOX_SESSION, fail closed on anything odd, and read the
// frozen policy and the metadata. (The launcher writes these files;
// here the example writes them itself.)
func ExampleAttach() {
	dir, _ := os.MkdirTemp("", "session-")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, contract.PolicyName), []byte("version = 1\n"), 0o600)
	os.WriteFile(filepath.Join(dir, contract.MetaName), []byte(`{"workspace":"/home/me/project","home":"/home/me","mode":"auto","agent":"claude"}`), 0o600)

	a, err := contract.Attach(dir)
	if err != nil {
		fmt.Println(err) // the shim exits 71: nothing runs
		return
	}
	var m contract.Meta
	if err := a.DecodeMeta(&m); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Workspace, m.Mode, m.Agent, filepath.Base(a.Socket))

	os.Chmod(dir, 0o755) // another user could enter: refused
	_, err = contract.Attach(dir)
	fmt.Println(err != nil)
	// Output:
	// /home/me/project auto claude worker.sock
	// true
}
