// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package agents

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"reflect"
	"strings"
)

// KeptFile is one kept data file of a state directory (State.Keep) and
// what of it is data: exactly one of Merge and Format. A file whose
// check fails (or that declares neither) stays on the host as it was
// before the session (docs/ring.md "The agent's state", escape classes
// 53 to 55).
type KeptFile struct {
	// Name is a base-name glob (history.jsonl, *.sqlite).
	Name string
	// Max bounds the session's copy in bytes (0: MaxKept, or MaxMerged
	// with Merge): a larger or sparse file is not copied back.
	Max int64
	// Merge reads the file whole: given the host's file before the
	// session (nil when there was none) and the session's, it returns
	// what goes back, or an error.
	Merge func(before, after []byte) ([]byte, error)
	// Format checks a file the agent only reads as data, as a stream;
	// the file is then copied back as it is.
	Format func(r io.Reader) error
}

// Size bounds of kept files (escape class 53: a sparse 8 TiB history
// read whole killed the launcher).
const (
	MaxKept   = 1 << 30
	MaxMerged = 16 << 20
)

// Bound is f's size bound.
func (f KeptFile) Bound() int64 {
	switch {
	case f.Max > 0:
		return f.Max
	case f.Merge != nil:
		return MaxMerged
	}
	return MaxKept
}

// Matches says whether name is f's.
func (f KeptFile) Matches(name string) bool {
	ok, _ := path.Match(f.Name, name)
	return ok
}

// Opaque is the Format of a file the agent reads as data whatever it
// holds (SQLite's -shm index, rebuilt from the database).
func Opaque(io.Reader) error { return nil }

// JSONLines is the Format of a JSON-lines file (history.jsonl): every
// non-empty line one JSON value.
func JSONLines(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if t := bytes.TrimSpace(line); len(t) > 0 && !json.Valid(t) {
			return fmt.Errorf("line %d is not JSON", n)
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// JSONDoc is the Format of a file holding one JSON document (a cache).
func JSONDoc(r io.Reader) error {
	b, err := io.ReadAll(io.LimitReader(r, MaxMerged+1))
	if err != nil {
		return err
	}
	if len(b) > MaxMerged || !json.Valid(b) {
		return errors.New("not one JSON document")
	}
	return nil
}

// Magic is the Format of a binary file that starts with one of heads
// (or is empty): SQLite's database and WAL headers.
func Magic(heads ...string) func(io.Reader) error {
	return func(r io.Reader) error {
		buf := make([]byte, 32)
		n, err := io.ReadFull(r, buf)
		if n == 0 && (errors.Is(err, io.EOF)) {
			return nil
		}
		for _, h := range heads {
			if strings.HasPrefix(string(buf[:n]), h) {
				return nil
			}
		}
		return errors.New("not the file format its name says")
	}
}

// Token is the Format of a one-line plain token (an installation id).
func Token(r io.Reader) error {
	b, err := io.ReadAll(io.LimitReader(r, 4097))
	if err != nil {
		return err
	}
	if s := strings.TrimSpace(string(b)); s != "" && !PlainToken(s) {
		return errors.New("not a plain token")
	}
	return nil
}

// PlainToken says whether s is a credential value and nothing else:
// printable ASCII with no space, not starting with "!" (Pi runs such a
// value as a shell command, escape class 55), at most 4096 bytes.
func PlainToken(s string) bool {
	if s == "" || len(s) > 4096 || s[0] == '!' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// JSONKeys is the Merge of a JSON object of which only the data keys
// may change in the session (an allow-list; see [MergeJSON]).
func JSONKeys(data ...[]string) func(before, after []byte) ([]byte, error) {
	return func(before, after []byte) ([]byte, error) { return MergeJSON(before, after, data) }
}

// MergeJSON returns before (an empty object when nil) with the values
// at the data key paths taken from after: set where after has them,
// removed where it has not. Every other key stays as it was before. A
// key path is a list of globs, one per level ("*", "last*"). An after
// that is not a JSON object is an error, as is a before that is not.
// The result is before's bytes when nothing changes.
func MergeJSON(before, after []byte, data [][]string) ([]byte, error) {
	base := map[string]any{}
	if before != nil {
		var err error
		if base, err = ParseJSONObject(before); err != nil {
			return nil, fmt.Errorf("the host's file is not a JSON object: %w", err)
		}
	}
	now, err := ParseJSONObject(after)
	if err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	orig, _ := ParseJSONObject(before)
	for _, p := range data {
		mergeAt(base, now, p)
	}
	if before != nil && reflect.DeepEqual(orig, base) {
		return before, nil
	}
	b, err := json.MarshalIndent(base, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// mergeAt copies the values at pat from src into dst.
func mergeAt(dst, src map[string]any, pat []string) {
	if len(pat) == 0 {
		return
	}
	keys := map[string]bool{}
	for k := range dst {
		keys[k] = true
	}
	for k := range src {
		keys[k] = true
	}
	for k := range keys {
		if !keyMatch(pat[0], k) {
			continue
		}
		sv, inSrc := src[k]
		if len(pat) == 1 {
			if inSrc {
				dst[k] = sv
			} else {
				delete(dst, k)
			}
			continue
		}
		sm, _ := sv.(map[string]any)
		if sm == nil {
			sm = map[string]any{}
		}
		dm, isMap := dst[k].(map[string]any)
		_, inDst := dst[k]
		if inDst && !isMap {
			continue // not an object before: left as it was
		}
		if !inDst {
			dm = map[string]any{}
		}
		mergeAt(dm, sm, pat[1:])
		if inDst || len(dm) > 0 {
			dst[k] = dm
		}
	}
}

// keyMatch matches a key against a glob in which "*" also matches "/"
// (projects are keyed by their path).
func keyMatch(pat, k string) bool {
	ok, _ := path.Match(pat, strings.ReplaceAll(k, "/", "\x00"))
	return ok
}

// ParseJSONObject reads a JSON object (after a UTF-8 byte-order mark,
// which Claude accepts), numbers kept as written.
func ParseJSONObject(b []byte) (map[string]any, error) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("more than one JSON value")
	}
	if doc == nil {
		doc = map[string]any{}
	}
	return doc, nil
}
