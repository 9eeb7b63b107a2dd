// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"os"
	"path"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
)

// gitTemplateExclude is the info/exclude of git's built-in template
// directory, which `git init` and `git clone` copy into a new repository
// when no other template is configured.
const gitTemplateExclude = "/usr/share/git-core/templates/info/exclude"

// templateExclude hides the placeholders from a repository created
// inside the sandbox (`git init` at the top of a workspace that is not a
// repository, then `git add -A`; escape class 61): it binds, over the
// template's info/exclude, a copy that also lists each placeholder,
// anchored at every directory between the workspace and it (the new
// repository may start at any of them). The lines stay in the new
// repository's info/exclude, so only file placeholders are listed. The workspace's own repository
// gets the same through dressPlaceholders. It returns the mounts and a
// temporary file to remove after the sandbox exits ("" for none). A
// user's own template (init.templateDir, GIT_TEMPLATE_DIR) is not
// covered (docs/limits.md).
func templateExclude(s Spec, ms []Mount, ph []string) ([]Mount, string) {
	orig, err := os.ReadFile(gitTemplateExclude)
	if err != nil || lastCovering(ms, gitTemplateExclude) < 0 {
		return ms, ""
	}
	files := map[string]bool{}
	for _, m := range ms {
		if m.Kind == PlaceholderFile {
			files[m.Dst] = true
		}
	}
	var pats []string
	for _, p := range ph {
		// Only files: git tracks no empty directory, and every line
		// stays in the new repository's info/exclude.
		if !files[p] || !hostpath.Below(p, s.Workspace) {
			continue
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, s.Workspace), "/")
		for r := rel; r != ""; {
			pats = append(pats, "/"+r)
			_, r, _ = strings.Cut(r, "/")
		}
	}
	dir := privateDir()
	if len(pats) == 0 || dir == "" {
		return ms, ""
	}
	f, err := os.CreateTemp(dir, "template-exclude-")
	if err != nil {
		return ms, ""
	}
	text := string(orig) + "\n# lite-sandbox: read-only placeholders of protected paths, created while a sandbox ran;\n" +
		"# these lines may be deleted once it has ended\n" + strings.Join(pats, "\n") + "\n"
	_, werr := f.WriteString(text)
	if cerr := f.Close(); werr != nil || cerr != nil {
		os.Remove(f.Name())
		return ms, ""
	}
	return insertBeforeRemount(ms, Mount{Kind: ROBind, Src: f.Name(), Dst: path.Clean(gitTemplateExclude)}), f.Name()
}

// insertBeforeRemount adds m before the final read-only remount of the
// root, if there is one, else at the end.
func insertBeforeRemount(ms []Mount, m Mount) []Mount {
	if n := len(ms); n > 0 && ms[n-1].Kind == RemountRO {
		return append(ms[:n-1], m, ms[n-1])
	}
	return append(ms, m)
}
