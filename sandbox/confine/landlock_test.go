// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package confine

import (
	"fmt"
	"reflect"
	"testing"
)

// TestLandlockArgs: a policy goes through argv and back whole, in one
// argument when small and in parts of at most argPart bytes when it
// would outgrow the kernel's 128 KiB for one argument (E2BIG, class 34:
// a workspace of / in a crowded /var/tmp).
func TestLandlockArgs(t *testing.T) {
	t.Parallel()
	big := Landlock{Tmpdir: "/tmp/x", Net: true, ConnectTCP: []uint16{8080}}
	for i := range 20000 {
		big.RO = append(big.RO, fmt.Sprintf("/var/tmp/entry-%06d", i))
	}
	for _, c := range []struct {
		name  string
		ll    Landlock
		parts int
	}{
		{"small", Landlock{RO: []string{"/usr"}, RW: []string{"/ws"}}, 1},
		{"big", big, 8},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := c.ll.Args()
			if len(args) != 2*c.parts {
				t.Errorf("%d arguments, want %d parts", len(args), c.parts)
			}
			for i := 1; i < len(args); i += 2 {
				if args[i-1] != LandlockOption || len(args[i]) > argPart {
					t.Fatalf("argument %d: %q, %d bytes", i, args[i-1], len(args[i]))
				}
			}
			ll, argv, err := ParseArgs(append(args, "--", "prog", "arg"))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*ll, c.ll) || !reflect.DeepEqual(argv, []string{"prog", "arg"}) {
				t.Errorf("round trip: %d grants, argv %q", len(ll.RO), argv)
			}
			if !IsCommand(append([]string{"shim", Command}, append(args, "--", "prog")...)) {
				t.Error("IsCommand does not know the arguments")
			}
		})
	}
	if _, _, err := ParseArgs([]string{LandlockOption, `{"ro":`, LandlockOption, `["/a"`, "--", "p"}); err == nil {
		t.Error("a policy cut short parsed")
	}
}
