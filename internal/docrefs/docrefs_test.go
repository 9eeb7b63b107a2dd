// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package docrefs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

var (
	// sectionRef is "docs/validator.md §8.2" (or "agents.md` (§8"), or
	// a numbered finding of a document ("agents.md F7": none of ours
	// has such findings; they were a research note's).
	sectionRef = regexp.MustCompile("([A-Za-z0-9_/-]+\\.md)[`)(,: \\n]{0,4}(§|F)([0-9]+(?:\\.[0-9]+)*)")
	// moreSections continues a sectionRef: ", §6", " and §7".
	moreSections = regexp.MustCompile(`^(?:,\s*|\s+and\s+|\s+or\s+)(§)([0-9]+(?:\.[0-9]+)*)`)
	// sectionNumber is a section's number.
	sectionNumber = regexp.MustCompile(`^[0-9]+(?:\.[0-9]+)*`)
	// goFile is a Go file named without its folder: "(forms.go)".
	goFile = regexp.MustCompile("(?m)(?:^|[\\s(`,])([a-z0-9][a-z0-9_]*\\.go)\\b")
	// docName is a document's name.
	docName = regexp.MustCompile(`[A-Za-z0-9_/-]+\.md`)
	// loneSection is any §N.
	loneSection = regexp.MustCompile(`§([0-9]+(?:\.[0-9]+)*)`)
	// mdLink is a Markdown link's target.
	mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	// repoPath is a path below one of the top-level folders.
	repoPath = regexp.MustCompile("(?m)(?:^|[\\s(`\"'\\[,])((?:cmd|launch|shims|agents|sandbox|internal|docs|scripts)/[A-Za-z0-9_./-]*[A-Za-z0-9_])")
	// external are paths of other projects the documents cite, with
	// whose they are.
	external = map[string]string{
		"internal/agent/hooked_tool.go": "Crush's source (docs/validator.md)",
	}
	// heading is a numbered section heading: "## 8. Title", "### 8.2 Title".
	heading = regexp.MustCompile(`^#{1,6} +([0-9]+(?:\.[0-9]+)*)\.? `)
)

// root is the repository's root, above this package.
func root(t *testing.T) string {
	t.Helper()
	r, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(r, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", r, err)
	}
	return r
}

// citing is every text that cites: the comments of the Go files and the
// documents (not the changelog, which records what was, nor testdata).
func citing(t *testing.T, r string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != r && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(r, p)
		isGo, isMD := strings.HasSuffix(name, ".go"), strings.HasSuffix(name, ".md")
		if !isGo && !isMD || name == "CHANGELOG.md" || name == "NOTES.md" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, l := range strings.Split(string(b), "\n") {
			if isGo {
				// Comments only; other lines count, as empty ones.
				c, ok := strings.CutPrefix(strings.TrimSpace(l), "//")
				if !ok {
					c = ""
				}
				l = c
			}
			out[rel] = append(out[rel], l)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCitationsResolve: each `§N` has its numbered heading in the
// document named with it, each relative Markdown link names a file that
// exists (and, with #anchor, a heading of it), and each path below a
// top-level folder cited in a comment or a document exists. The
// control: a made-up citation of each kind does not resolve.
func TestCitationsResolve(t *testing.T) {
	t.Parallel()
	r := root(t)
	for _, bad := range []string{"docs/security-model.md §99", "docs/security-model.md §5, §99", "research-notes.md F3", "[x](docs/no-such.md)", "see shims/no-such.go", "(claudecwd.go)"} {
		if errs := check(r, "AGENTS.md", bad); len(errs) == 0 {
			t.Errorf("control: %q resolves", bad)
		}
	}
	if errs := check(r, "AGENTS.md", "docs/security-model.md §5, [x](docs/ring.md), shims/forms.go"); len(errs) != 0 {
		t.Errorf("control: %v", errs)
	}
	for file, lines := range citing(t, r) {
		for _, e := range check(r, file, strings.Join(lines, "\n")) {
			t.Errorf("%s:%s", file, e)
		}
	}
}

// check returns what text (of file) cites that does not resolve, each
// with its line.
func check(r, file, line string) []string {
	var errs []string
	at := func(i int, e string) string { return fmt.Sprintf("%d: %s", strings.Count(line[:i], "\n")+1, e) }
	covered := map[int]bool{} // where a § is of a named document
	for _, ix := range sectionRef.FindAllStringSubmatchIndex(line, -1) {
		name, kind := line[ix[2]:ix[3]], line[ix[4]:ix[5]]
		doc := docPath(r, file, name)
		if doc == "" {
			errs = append(errs, at(ix[0], name+": no such document"))
			continue
		}
		if kind != "§" {
			continue
		}
		// "docs/security-model.md §5, §6": each of the same document.
		nums := []int{ix[6]}
		covered[ix[4]] = true
		for end := ix[1]; ; {
			m := moreSections.FindStringSubmatchIndex(line[end:])
			if m == nil {
				break
			}
			covered[end+m[2]] = true
			nums = append(nums, end+m[4])
			end += m[1]
		}
		for _, i := range nums {
			if n := sectionNumber.FindString(line[i:]); !hasSection(doc, n) {
				errs = append(errs, at(i, name+" has no §"+n))
			}
		}
	}
	if strings.HasSuffix(file, ".md") {
		// A § of no named document is of the last one the paragraph
		// named before it, else of this one.
		for _, ix := range loneSection.FindAllStringSubmatchIndex(line, -1) {
			if covered[ix[0]] {
				continue
			}
			doc, para := filepath.Join(r, file), line[strings.LastIndex(line[:ix[0]], "\n\n")+1:ix[0]]
			if names := docName.FindAllString(para, -1); len(names) > 0 {
				if d := docPath(r, file, names[len(names)-1]); d != "" {
					doc = d
				}
			}
			if n := line[ix[2]:ix[3]]; !hasSection(doc, n) {
				rel, _ := filepath.Rel(r, doc)
				errs = append(errs, at(ix[0], rel+" has no §"+n))
			}
		}
	}
	if strings.HasSuffix(file, ".md") {
		for _, m := range mdLink.FindAllStringSubmatchIndex(line, -1) {
			if e := checkLink(r, file, line[m[2]:m[3]]); e != "" {
				errs = append(errs, at(m[0], e))
			}
		}
	}
	for _, m := range goFile.FindAllStringSubmatchIndex(line, -1) {
		// (A test's comments name the files it writes.)
		if name := line[m[2]:m[3]]; !goFiles(r)[name] && !strings.HasSuffix(file, "_test.go") {
			errs = append(errs, at(m[2], name+": no such Go file in the repository"))
		}
	}
	for _, m := range repoPath.FindAllStringSubmatchIndex(line, -1) {
		if p := line[m[2]:m[3]]; external[p] == "" && !exists(r, p) {
			errs = append(errs, at(m[2], p+": no such path in the repository"))
		}
	}
	return errs
}

var (
	goFilesOnce sync.Once
	goFileSet   map[string]bool
)

// goFiles are the base names of the repository's Go files.
func goFiles(r string) map[string]bool {
	goFilesOnce.Do(func() {
		goFileSet = map[string]bool{}
		filepath.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
				goFileSet[d.Name()] = true
			}
			return nil
		})
	})
	return goFileSet
}

// exists reports whether p is a path of the repository, or a package's
// identifier (shims/audit.AppendRotated, a package that exists).
func exists(r, p string) bool {
	if _, err := os.Stat(filepath.Join(r, p)); err == nil {
		return true
	}
	dir, base := filepath.Split(p)
	pkg, ident, ok := strings.Cut(base, ".")
	if !ok || ident == "" || ident[0] < 'A' || ident[0] > 'Z' {
		return false // a file: x.go, x.md, x.sh
	}
	_, err := os.Stat(filepath.Join(r, dir, pkg))
	return err == nil
}

// docPath finds a cited document: a path from the root, else one in
// docs/, else one beside the citing file.
func docPath(r, file, name string) string {
	for _, p := range []string{filepath.Join(r, name), filepath.Join(r, "docs", filepath.Base(name)), filepath.Join(r, filepath.Dir(file), name)} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

func hasSection(doc, n string) bool {
	b, err := os.ReadFile(doc)
	if err != nil {
		return false
	}
	for _, l := range strings.Split(string(b), "\n") {
		if m := heading.FindStringSubmatch(l); m != nil && m[1] == n {
			return true
		}
	}
	return false
}

// checkLink resolves a Markdown link of file: a relative path that
// exists, and its #anchor a heading there.
func checkLink(r, file, target string) string {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return ""
	}
	p, anchor, _ := strings.Cut(target, "#")
	doc := filepath.Join(r, file)
	if p != "" {
		doc = filepath.Join(r, filepath.Dir(file), p)
		if _, err := os.Stat(doc); err != nil {
			return target + ": no such file"
		}
	}
	if anchor == "" || !strings.HasSuffix(doc, ".md") {
		return ""
	}
	b, err := os.ReadFile(doc)
	if err != nil {
		return target + ": " + err.Error()
	}
	for _, l := range strings.Split(string(b), "\n") {
		if h, ok := strings.CutPrefix(l, "#"); ok && slug(strings.TrimLeft(h, "#")) == anchor {
			return ""
		}
	}
	return target + ": no such heading"
}

// slug is GitHub's anchor of a heading.
func slug(h string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case c == ' ':
			b.WriteByte('-')
		case c == '-' || c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c > 127:
			b.WriteRune(c)
		}
	}
	return b.String()
}
