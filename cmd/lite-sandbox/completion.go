// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	kongcompletion "github.com/jotaen/kong-completion"
	"github.com/posener/complete"

	"github.com/lite-sandbox/lite-sandbox/agents/registry"
)

// completionPredictors complete what the kong model cannot know: the
// agents `launch` takes.
func completionPredictors() kongcompletion.Option {
	return kongcompletion.WithPredictor("agent", complete.PredictSet(append([]string{"exec"}, registry.Names()...)...))
}

// CompletionCmd is `lite-sandbox completion bash|zsh|fish`: it prints the
// shell code that hands completion to this binary. The completions
// themselves come from the kong model (github.com/jotaen/kong-completion,
// registered in Main): the shell runs the binary with COMP_LINE set.
type CompletionCmd struct {
	Shell string `arg:"" enum:"bash,zsh,fish" help:"bash, zsh or fish."`
}

// Help is the longer help text.
func (c *CompletionCmd) Help() string {
	return `Add to your shell's start-up file:

  bash (~/.bashrc):                  source <(lite-sandbox completion bash)
  zsh (~/.zshrc):                    source <(lite-sandbox completion zsh)
  fish (~/.config/fish/config.fish): lite-sandbox completion fish | source`
}

// Run prints the code.
func (c *CompletionCmd) Run(io stdio) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("completion: %w", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	q := "'" + strings.ReplaceAll(exe, "'", `'\''`) + "'"
	var code string
	switch c.Shell {
	case "bash":
		code = "complete -o default -o bashdefault -C " + q + " lite-sandbox\n"
	case "zsh":
		code = "autoload -U +X bashcompinit && bashcompinit\ncomplete -o default -o bashdefault -C " + q + " lite-sandbox\n"
	case "fish":
		code = `function __lite_sandbox_complete
    set -lx COMP_LINE (commandline -cp)
    test -z (commandline -ct); and set COMP_LINE "$COMP_LINE "
    ` + q + `
end
complete -f -c lite-sandbox -a "(__lite_sandbox_complete)"
`
	}
	_, err = fmt.Fprint(io.out, code)
	return err
}
