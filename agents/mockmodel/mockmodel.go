// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package mockmodel is a model server for tests: one HTTP server on
// 127.0.0.1 that speaks enough of the Anthropic Messages API, the OpenAI
// Responses API, the OpenAI Chat Completions API and Gemini's
// generateContent (all streamed as server-sent events; gemini.go) to
// drive Claude Code, Codex, Crush, Pi and Gemini CLI through one shell
// tool call and a final answer (docs/agents.md §3.9, §4.7, §7).
//
// A scenario is one shell command (and more after it), or a script of
// turns, each asking for any tools with any input (see [Turn]). The
// decision is stateless: the number of tool results the request carries
// says which turn is due; a request that offers no tool (a title
// request) or carries every result gets the final text. Agents send
// extra requests, so requests are never counted. Every tool result the
// agent sends back, and every request body, is recorded, so that a test
// can assert what the model saw (a refusal's reason; that a secret never
// arrived).
package mockmodel

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// Scenario is what the model does.
type Scenario struct {
	// Command is what the model asks its shell tool to run.
	Command string
	// Then are further commands, one tool call each, after Command's
	// result (for state that must carry over, such as `cd`).
	Then []string
	// Final is the model's final answer, once it has seen the results.
	Final string
	// Extra are more tool arguments for every shell call, for negative
	// tests (Codex {"shell":"/bin/sh"}, Crush {"working_dir":...}).
	Extra map[string]any
	// Turns, when set, replace Command and Then: turn k is answered to a
	// request that carries the results of every call of turns 0..k-1.
	Turns []Turn
}

// Server is a running mock model.
type Server struct {
	// URL is the server's base URL, http://127.0.0.1:<port>, without
	// /v1.
	URL string

	sc  Scenario
	srv *http.Server
	ln  net.Listener

	mu       sync.Mutex
	results  map[string]string // tool call id -> the result's text
	order    []string
	requests []string // "METHOD PATH" of every request
	auth     []string // the Authorization and x-api-key headers sent
	bodies   []string // every request body
}

// Start starts a server for sc; Close stops it.
func Start(sc Scenario) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("mock model: %w", err)
	}
	s := &Server{URL: "http://" + ln.Addr().String(), sc: sc, ln: ln, results: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages", s.anthropic)
	mux.HandleFunc("POST /v1/responses", s.responses)
	mux.HandleFunc("POST /v1/chat/completions", s.chat)
	mux.HandleFunc("GET /v1/models", s.models)
	mux.HandleFunc("POST /v1beta/models/{model_action}", s.gemini)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead || (r.Method == http.MethodGet && r.URL.Path == "/") {
			return // Claude's preconnect
		}
		http.NotFound(w, r)
	})
	s.srv = &http.Server{Handler: s.logged(mux)}
	go s.srv.Serve(ln)
	return s, nil
}

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }

// ToolResults returns the text of every tool result the agent sent, in
// the order first seen (each call id once).
func (s *Server) ToolResults() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, len(s.order))
	for i, id := range s.order {
		out[i] = s.results[id]
	}
	return out
}

// Results returns the tool results by call id.
func (s *Server) Results() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := make(map[string]string, len(s.results))
	for k, v := range s.results {
		m[k] = v
	}
	return m
}

// Saw reports whether any request body so far contained sub: whatever
// the agent sent the model, tool results, system prompt and history.
func (s *Server) Saw(sub string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range s.bodies {
		if strings.Contains(b, sub) {
			return true
		}
	}
	return false
}

// Requests returns "METHOD PATH" of every request so far.
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// Auth returns the credentials the agent sent (the Authorization and
// x-api-key headers of every request), to tell which login it used.
func (s *Server) Auth() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.auth...)
}

func (s *Server) logged(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, r.Method+" "+r.URL.Path)
		for _, h := range []string{"Authorization", "X-Api-Key"} {
			if v := r.Header.Get(h); v != "" {
				s.auth = append(s.auth, v)
			}
		}
		s.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (s *Server) record(id, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.results[id]; !ok {
		s.order = append(s.order, id)
	}
	s.results[id] = text
}

func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any) bool {
	b, err := io.ReadAll(r.Body)
	s.mu.Lock()
	s.bodies = append(s.bodies, string(b))
	s.mu.Unlock()
	if err == nil {
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		http.Error(w, "bad request: "+err.Error(), http.StatusBadRequest)
		return false
	}
	return true
}

// sse writes server-sent events: each pair is (event name or "", data).
func sse(w http.ResponseWriter, events [][2]any) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	for _, e := range events {
		b, _ := json.Marshal(e[1])
		if name, _ := e[0].(string); name != "" {
			fmt.Fprintf(w, "event: %s\n", name)
		}
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// text flattens a content value: a string, or a list of blocks with
// "text" (or nested "content").
func text(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		var parts []string
		for _, b := range v {
			m, _ := b.(map[string]any)
			if t, ok := m["text"].(string); ok {
				parts = append(parts, t)
			} else if c, ok := m["content"]; ok {
				parts = append(parts, text(c))
			} else if t, ok := m["output"].(string); ok {
				parts = append(parts, t)
			}
		}
		return strings.Join(parts, "\n")
	case map[string]any:
		return text([]any{v})
	}
	return ""
}

// args is a tool call's arguments: the command under key, plus Extra.
func (s *Server) args(key, cmd string, more map[string]any) map[string]any {
	a := map[string]any{key: cmd}
	for k, v := range more {
		a[k] = v
	}
	for k, v := range s.sc.Extra {
		a[k] = v
	}
	return a
}

func arguments(v map[string]any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// call resolves one scripted call for a wire API whose shell tool is
// shellName with its command under shellKey: the tool name and its
// arguments (or a custom tool's raw input).
func (s *Server) call(c Call, shellName, shellKey string, more map[string]any) (name string, input map[string]any) {
	if c.Tool == "" {
		return shellName, s.args(shellKey, c.Command, more)
	}
	if c.Input == nil {
		return c.Tool, map[string]any{}
	}
	return c.Tool, c.Input
}

// due is the turn to answer, or nil for the final text: only requests
// that offer tools (the shell tool, for a turn that calls it) get calls.
func (s *Server) due(results int, tools []string, shellName string) (Turn, int) {
	t, num, ok := s.sc.turn(results)
	if !ok || len(tools) == 0 {
		return nil, 0
	}
	for _, c := range t {
		if c.Tool == "" && !slices.Contains(tools, shellName) {
			return nil, 0
		}
	}
	return t, num
}

// ---- Anthropic Messages ----

type anthropicRequest struct {
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
	Messages []struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	} `json:"messages"`
}

func (s *Server) anthropic(w http.ResponseWriter, r *http.Request) {
	var req anthropicRequest
	if !s.decode(w, r, &req) {
		return
	}
	var tools []string
	for _, t := range req.Tools {
		tools = append(tools, t.Name)
	}
	results := 0
	for _, m := range req.Messages {
		blocks, _ := m.Content.([]any)
		for _, b := range blocks {
			bm, _ := b.(map[string]any)
			if bm["type"] == "tool_result" {
				results++
				id, _ := bm["tool_use_id"].(string)
				s.record(id, text(bm["content"]))
			}
		}
	}
	events := [][2]any{{"message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_1", "type": "message", "role": "assistant", "model": "mock-model", "content": []any{},
		"stop_reason": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 5}}}}}
	block := func(i int, start, delta map[string]any) {
		events = append(events,
			[2]any{"content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": start}},
			[2]any{"content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": delta}},
			[2]any{"content_block_stop", map[string]any{"type": "content_block_stop", "index": i}})
	}
	stop := "end_turn"
	if t, num := s.due(results, tools, "Bash"); t != nil {
		for i, c := range t {
			name, input := s.call(c, "Bash", "command", map[string]any{"description": "run the scenario's command"})
			block(i, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d_%d", num, i), "name": name, "input": map[string]any{}},
				map[string]any{"type": "input_json_delta", "partial_json": arguments(input)})
		}
		stop = "tool_use"
	} else {
		block(0, map[string]any{"type": "text", "text": ""}, map[string]any{"type": "text_delta", "text": s.sc.Final})
	}
	sse(w, append(events,
		[2]any{"message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop}, "usage": map[string]any{"output_tokens": 5}}},
		[2]any{"message_stop", map[string]any{"type": "message_stop"}},
	))
}

// ---- OpenAI Responses ----

type responsesRequest struct {
	Tools []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	} `json:"tools"`
	Input []map[string]any `json:"input"`
}

func (s *Server) responses(w http.ResponseWriter, r *http.Request) {
	var req responsesRequest
	if !s.decode(w, r, &req) {
		return
	}
	var tools []string
	for _, t := range req.Tools {
		tools = append(tools, t.Name)
	}
	results := 0
	for _, it := range req.Input {
		if it["type"] == "function_call_output" || it["type"] == "custom_tool_call_output" {
			results++
			id, _ := it["call_id"].(string)
			s.record(id, text(it["output"]))
		}
	}
	var items []any
	if t, num := s.due(results, tools, "exec_command"); t != nil {
		for i, c := range t {
			id := fmt.Sprintf("%d_%d", num, i)
			if c.Tool != "" && c.Custom != "" {
				items = append(items, map[string]any{"type": "custom_tool_call", "id": "ctc_" + id, "call_id": "call_" + id,
					"name": c.Tool, "input": c.Custom, "status": "completed"})
				continue
			}
			name, input := s.call(c, "exec_command", "cmd", nil)
			items = append(items, map[string]any{"type": "function_call", "id": "fc_" + id, "call_id": "call_" + id, "name": name,
				"arguments": arguments(input)})
		}
	} else {
		items = []any{map[string]any{"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": s.sc.Final, "annotations": []any{}}}}}
	}
	events := [][2]any{{"response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_1", "object": "response", "status": "in_progress", "output": []any{}}}}}
	for i, it := range items {
		events = append(events, [2]any{"response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": i, "item": it}})
	}
	sse(w, append(events, [2]any{"response.completed", map[string]any{"type": "response.completed", "response": map[string]any{
		"id": "resp_1", "object": "response", "status": "completed", "output": items,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 5, "total_tokens": 15}}}}))
}

// ---- OpenAI Chat Completions ----

type chatRequest struct {
	Tools []struct {
		Function struct {
			Name       string `json:"name"`
			Parameters struct {
				Properties map[string]any `json:"properties"`
			} `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
	Messages []struct {
		Role       string `json:"role"`
		Content    any    `json:"content"`
		ToolCallID string `json:"tool_call_id"`
	} `json:"messages"`
	StreamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	var req chatRequest
	if !s.decode(w, r, &req) {
		return
	}
	var props map[string]any
	var tools []string
	for _, t := range req.Tools {
		tools = append(tools, t.Function.Name)
		if t.Function.Name == "bash" {
			props = t.Function.Parameters.Properties
		}
	}
	results := 0
	for _, m := range req.Messages {
		if m.Role == "tool" {
			results++
			s.record(m.ToolCallID, text(m.Content))
		}
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "mock-model",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	var events [][2]any
	if t, num := s.due(results, tools, "bash"); t != nil {
		var more map[string]any
		if _, ok := props["description"]; ok { // Crush requires it; filter to the schema
			more = map[string]any{"description": "run the scenario's command"}
		}
		var starts []any
		for i, c := range t {
			name, _ := s.call(c, "bash", "command", more)
			starts = append(starts, map[string]any{"index": i, "id": fmt.Sprintf("call_%d_%d", num, i), "type": "function",
				"function": map[string]any{"name": name, "arguments": ""}})
		}
		events = append(events, [2]any{"", chunk(map[string]any{"role": "assistant", "content": nil, "tool_calls": starts}, nil)})
		for i, c := range t {
			_, input := s.call(c, "bash", "command", more)
			events = append(events, [2]any{"", chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i,
				"function": map[string]any{"arguments": arguments(input)}}}}, nil)})
		}
		events = append(events, [2]any{"", chunk(map[string]any{}, "tool_calls")})
	} else {
		events = [][2]any{
			{"", chunk(map[string]any{"role": "assistant", "content": ""}, nil)},
			{"", chunk(map[string]any{"content": s.sc.Final}, nil)},
			{"", chunk(map[string]any{}, "stop")},
		}
	}
	if req.StreamOptions.IncludeUsage {
		events = append(events, [2]any{"", map[string]any{"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "mock-model",
			"choices": []any{}, "usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}})
	}
	sse(w, events)
	fmt.Fprint(w, "data: [DONE]\n\n")
}

func (s *Server) models(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": []any{
		map[string]any{"id": "mock-model", "object": "model", "created": 0, "owned_by": "mock"}}})
}
