// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package mockmodel

import (
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func start(t *testing.T) *Server {
	t.Helper()
	s, err := Start(Scenario{Command: `echo "it's" > probe.txt`, Final: "all done"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func post(t *testing.T, url, body string) (events []map[string]any, names []string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/event-stream" {
		t.Fatalf("status %d, content type %q", resp.StatusCode, ct)
	}
	b, _ := io.ReadAll(resp.Body)
	for _, l := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(l, "event: "):
			names = append(names, strings.TrimPrefix(l, "event: "))
		case l == "data: [DONE]":
			names = append(names, "[DONE]")
		case strings.HasPrefix(l, "data: "):
			var m map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(l, "data: ")), &m); err != nil {
				t.Fatalf("bad data line %q: %v", l, err)
			}
			events = append(events, m)
		}
	}
	return events, names
}

func TestAnthropic(t *testing.T) {
	t.Parallel()
	s := start(t)
	ev, names := post(t, s.URL+"/v1/messages?beta=true", `{"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"go"}]}`)
	want := []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("events %v, want %v", names, want)
	}
	var input map[string]string
	json.Unmarshal([]byte(ev[2]["delta"].(map[string]any)["partial_json"].(string)), &input)
	if input["command"] != `echo "it's" > probe.txt` || input["description"] == "" {
		t.Fatalf("tool input %v", input)
	}
	if ev[4]["delta"].(map[string]any)["stop_reason"] != "tool_use" {
		t.Fatalf("stop reason %v", ev[4])
	}
	// A tool result (string or blocks) means the final answer; it is
	// recorded once per id, however often the history is resent.
	for range 2 {
		ev, _ = post(t, s.URL+"/v1/messages", `{"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"go"},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"PROBE out"}]}]}]}`)
	}
	if d := ev[2]["delta"].(map[string]any); d["text"] != "all done" {
		t.Fatalf("final %v", d)
	}
	if got := s.ToolResults(); !reflect.DeepEqual(got, []string{"PROBE out"}) {
		t.Fatalf("results %q", got)
	}
	// A tool-less request (a title) gets text, never a tool call.
	ev, _ = post(t, s.URL+"/v1/messages", `{"messages":[{"role":"user","content":"title?"}]}`)
	if ev[1]["content_block"].(map[string]any)["type"] != "text" {
		t.Fatalf("tool-less request got %v", ev[1])
	}
	resp, err := http.Head(s.URL + "/")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("HEAD / = %v, %v", resp, err)
	}
}

func TestResponses(t *testing.T) {
	t.Parallel()
	s := start(t)
	ev, names := post(t, s.URL+"/v1/responses", `{"tools":[{"type":"function","name":"exec_command"}],"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}]}`)
	if !reflect.DeepEqual(names, []string{"response.created", "response.output_item.done", "response.completed"}) {
		t.Fatalf("events %v", names)
	}
	item := ev[1]["item"].(map[string]any)
	var args map[string]string
	json.Unmarshal([]byte(item["arguments"].(string)), &args)
	if item["type"] != "function_call" || item["name"] != "exec_command" || args["cmd"] != `echo "it's" > probe.txt` {
		t.Fatalf("item %v", item)
	}
	ev, _ = post(t, s.URL+"/v1/responses", `{"tools":[{"type":"function","name":"exec_command"}],"input":[{"type":"function_call_output","call_id":"call_1","output":"Output:\nPROBE"}]}`)
	if item := ev[1]["item"].(map[string]any); item["type"] != "message" {
		t.Fatalf("final item %v", item)
	}
	if got := s.ToolResults(); !reflect.DeepEqual(got, []string{"Output:\nPROBE"}) {
		t.Fatalf("results %q", got)
	}
}

func TestChat(t *testing.T) {
	t.Parallel()
	s := start(t)
	tools := `"tools":[{"type":"function","function":{"name":"bash","parameters":{"properties":{"command":{},"description":{}}}}}]`
	ev, names := post(t, s.URL+"/v1/chat/completions", `{`+tools+`,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"go"}]}`)
	if len(names) != 1 || names[0] != "[DONE]" || len(ev) != 4 {
		t.Fatalf("events %v %v", names, ev)
	}
	ch := ev[1]["choices"].([]any)[0].(map[string]any)["delta"].(map[string]any)["tool_calls"].([]any)[0].(map[string]any)
	var args map[string]string
	json.Unmarshal([]byte(ch["function"].(map[string]any)["arguments"].(string)), &args)
	if args["command"] != `echo "it's" > probe.txt` || args["description"] == "" {
		t.Fatalf("arguments %v", args)
	}
	if fin := ev[2]["choices"].([]any)[0].(map[string]any)["finish_reason"]; fin != "tool_calls" {
		t.Fatalf("finish %v", fin)
	}
	// Pi's schema has no description: the arguments follow the schema.
	ev, _ = post(t, s.URL+"/v1/chat/completions", `{"tools":[{"type":"function","function":{"name":"bash","parameters":{"properties":{"command":{}}}}}],"messages":[{"role":"user","content":"go"}]}`)
	ch = ev[1]["choices"].([]any)[0].(map[string]any)["delta"].(map[string]any)["tool_calls"].([]any)[0].(map[string]any)
	if a := ch["function"].(map[string]any)["arguments"].(string); strings.Contains(a, "description") {
		t.Fatalf("arguments %s", a)
	}
	ev, _ = post(t, s.URL+"/v1/chat/completions", `{`+tools+`,"messages":[{"role":"user","content":"go"},{"role":"tool","tool_call_id":"call_1","content":"PROBE"}]}`)
	if d := ev[1]["choices"].([]any)[0].(map[string]any)["delta"].(map[string]any); d["content"] != "all done" {
		t.Fatalf("final %v", d)
	}
	if got := s.ToolResults(); !reflect.DeepEqual(got, []string{"PROBE"}) {
		t.Fatalf("results %q", got)
	}
	resp, err := http.Get(s.URL + "/v1/models")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("models: %v %v", resp, err)
	}
}

// TestThen: the number of results in the request picks the next command;
// the same request always gets the same answer.
func TestThen(t *testing.T) {
	t.Parallel()
	s, err := Start(Scenario{Command: "cd sub", Then: []string{"pwd"}, Final: "done"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tools := `"tools":[{"type":"function","function":{"name":"bash","parameters":{"properties":{"command":{}}}}}]`
	args := func(body string) string {
		ev, _ := post(t, s.URL+"/v1/chat/completions", body)
		d := ev[1]["choices"].([]any)[0].(map[string]any)["delta"].(map[string]any)
		if c, ok := d["content"].(string); ok {
			return "final:" + c
		}
		return d["tool_calls"].([]any)[0].(map[string]any)["function"].(map[string]any)["arguments"].(string)
	}
	one := `{` + tools + `,"messages":[{"role":"user","content":"go"},{"role":"tool","tool_call_id":"call_1","content":"r1"}]}`
	for range 2 {
		if got := args(one); got != `{"command":"pwd"}` {
			t.Fatalf("after one result: %s", got)
		}
	}
	two := `{` + tools + `,"messages":[{"role":"user","content":"go"},{"role":"tool","tool_call_id":"call_1","content":"r1"},{"role":"tool","tool_call_id":"call_2","content":"r2"}]}`
	if got := args(two); got != "final:done" {
		t.Fatalf("after two results: %s", got)
	}
	if got := s.ToolResults(); !reflect.DeepEqual(got, []string{"r1", "r2"}) {
		t.Fatalf("results %q", got)
	}
}

// TestScript: a scripted turn asks for several tools at once, on each
// wire API; the turn follows the number of tool results in the request
// (a tool-less request gets the final text); results and bodies are
// recorded.
func TestScript(t *testing.T) {
	t.Parallel()
	s, err := Start(Scenario{Final: "fin", Turns: []Turn{
		{{Tool: "Read", Input: map[string]any{"file_path": "/x"}}, {Tool: "Write", Input: map[string]any{"file_path": "/y", "content": "c"}}},
		{{Tool: "apply_patch", Custom: "*** Begin Patch\n*** End Patch\n"}, Shell("id")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	ev, _ := post(t, s.URL+"/v1/messages", `{"tools":[{"name":"Read"},{"name":"Bash"}],"messages":[{"role":"user","content":"go"}]}`)
	var names []string
	for _, e := range ev {
		if e["type"] == "content_block_start" {
			names = append(names, e["content_block"].(map[string]any)["name"].(string))
		}
	}
	if !reflect.DeepEqual(names, []string{"Read", "Write"}) {
		t.Fatalf("turn 1 tools %v", names)
	}
	// Two results: turn 2, a custom tool call and the shell.
	ev, _ = post(t, s.URL+"/v1/responses", `{"tools":[{"name":"exec_command"},{"type":"custom","name":"apply_patch"}],"input":[
 {"type":"function_call_output","call_id":"a","output":"refused: SECRET-REASON"},{"type":"custom_tool_call_output","call_id":"b","output":"ok"}]}`)
	var kinds []string
	for _, e := range ev {
		if e["type"] == "response.output_item.done" {
			it := e["item"].(map[string]any)
			kinds = append(kinds, it["type"].(string)+":"+it["name"].(string))
			if it["type"] == "custom_tool_call" && it["input"] != "*** Begin Patch\n*** End Patch\n" {
				t.Errorf("custom input %q", it["input"])
			}
			if it["type"] == "function_call" && it["arguments"] != `{"cmd":"id"}` {
				t.Errorf("shell arguments %v", it["arguments"])
			}
		}
	}
	if !reflect.DeepEqual(kinds, []string{"custom_tool_call:apply_patch", "function_call:exec_command"}) {
		t.Fatalf("turn 2 items %v", kinds)
	}
	// Four results: final text, on the chat API; so is a tool-less request.
	for _, body := range []string{
		`{"tools":[{"function":{"name":"bash"}}],"messages":[{"role":"tool","tool_call_id":"1","content":"r"},{"role":"tool","tool_call_id":"2","content":"r"},{"role":"tool","tool_call_id":"3","content":"r"},{"role":"tool","tool_call_id":"4","content":"r"}]}`,
		`{"messages":[{"role":"user","content":"title please"}]}`,
	} {
		ev, _ = post(t, s.URL+"/v1/chat/completions", body)
		got := ""
		for _, e := range ev {
			for _, c := range e["choices"].([]any) {
				if d, ok := c.(map[string]any)["delta"].(map[string]any)["content"].(string); ok {
					got += d
				}
			}
		}
		if got != "fin" {
			t.Fatalf("final text %q for %s", got, body)
		}
	}
	// Chat, turn 1 (no results): two tool calls with their own indexes.
	ev, _ = post(t, s.URL+"/v1/chat/completions", `{"tools":[{"function":{"name":"read"}}],"messages":[{"role":"user","content":"go"}]}`)
	calls := 0
	for _, e := range ev {
		for _, c := range e["choices"].([]any) {
			if tc, ok := c.(map[string]any)["delta"].(map[string]any)["tool_calls"].([]any); ok && len(tc) == 2 {
				calls = len(tc)
			}
		}
	}
	if calls != 2 {
		t.Fatalf("chat turn 1: want 2 tool calls in the first chunk")
	}
	if got := s.Results()["a"]; got != "refused: SECRET-REASON" {
		t.Errorf("result a = %q", got)
	}
	if !s.Saw("SECRET-REASON") || s.Saw("NEVER-SENT") {
		t.Errorf("Saw is wrong")
	}
}
