// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package mockmodel

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestGemini: a streamed request offering run_shell_command gets the
// call (with an id Gemini echoes); one carrying its functionResponse gets
// the final text, and the result is recorded under that id; the
// non-streamed form answers plain JSON.
func TestGemini(t *testing.T) {
	t.Parallel()
	s := start(t)
	const tools = `"tools":[{"functionDeclarations":[{"name":"run_shell_command"},{"name":"read_file"}]}]`
	ev, _ := post(t, s.URL+"/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
		`{"contents":[{"role":"user","parts":[{"text":"go"}]}],`+tools+`}`)
	part := ev[0]["candidates"].([]any)[0].(map[string]any)["content"].(map[string]any)["parts"].([]any)[0].(map[string]any)
	fc := part["functionCall"].(map[string]any)
	if fc["name"] != "run_shell_command" || fc["id"] != "call_1_0" || fc["args"].(map[string]any)["command"] != `echo "it's" > probe.txt` {
		t.Fatalf("function call %v", fc)
	}
	body := `{"contents":[{"role":"user","parts":[{"text":"go"}]},{"role":"model","parts":[{"functionCall":{"id":"call_1_0","name":"run_shell_command"}}]},` +
		`{"role":"user","parts":[{"functionResponse":{"id":"call_1_0","name":"run_shell_command","response":{"output":"lite-sandbox: blocked"}}}]}],` + tools + `}`
	resp, err := http.Post(s.URL+"/v1beta/models/gemini-2.5-flash:generateContent", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Candidates []struct {
			Content struct {
				Parts []struct {
					Text string `json:"text"`
				} `json:"parts"`
			} `json:"content"`
		} `json:"candidates"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || len(out.Candidates) != 1 || out.Candidates[0].Content.Parts[0].Text == "" {
		t.Fatalf("final answer %+v, %v", out, err)
	}
	if r := s.Results()["call_1_0"]; !strings.Contains(r, "lite-sandbox: blocked") {
		t.Errorf("recorded result %q", r)
	}
}
