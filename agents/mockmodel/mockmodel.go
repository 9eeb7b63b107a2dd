// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package mockmodel is a model server for tests: one HTTP server on
// 127.0.0.1 that speaks enough of the Anthropic Messages API, the OpenAI
// Responses API and the OpenAI Chat Completions API (all streamed as
// server-sent events) to drive Claude Code, Codex, Crush and Pi through
// one shell tool call and a final answer (docs/agents.md §3.9,
// §4.7, §7).
//
// The decision is stateless: a request that offers the shell tool and
// carries fewer tool results than the scenario has commands gets the
// next tool call; any other gets the final text. Agents send extra tool-less requests (titles), so requests are
// never counted. The tool results the agent sends back are recorded, so
// that a test can read what the command printed.
package mockmodel

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
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
	// Extra are more tool arguments for every call, for negative tests
	// (Codex {"shell":"/bin/sh"}, Crush {"working_dir":...}).
	Extra map[string]any
}

// next returns the command to ask for when the request carries n tool
// results, and its 1-based number; ok is false when the final answer is
// due. It depends only on the request, never on earlier requests.
func (sc Scenario) next(n int) (cmd string, num int, ok bool) {
	cmds := append([]string{sc.Command}, sc.Then...)
	if n >= len(cmds) {
		return "", 0, false
	}
	return cmds[n], n + 1, true
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

// Requests returns "METHOD PATH" of every request so far.
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

func (s *Server) logged(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, r.Method+" "+r.URL.Path)
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

func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	b, err := io.ReadAll(r.Body)
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
	if !decode(w, r, &req) {
		return
	}
	offered := false
	for _, t := range req.Tools {
		offered = offered || t.Name == "Bash"
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
	start := [2]any{"message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_1", "type": "message", "role": "assistant", "model": "mock-model", "content": []any{},
		"stop_reason": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 5}}}}
	var block, delta [2]any
	stop := "end_turn"
	if cmd, num, ok := s.sc.next(results); offered && ok {
		block = [2]any{"content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d", num), "name": "Bash", "input": map[string]any{}}}}
		delta = [2]any{"content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": arguments(s.args("command", cmd, map[string]any{"description": "run the scenario's command"}))}}}
		stop = "tool_use"
	} else {
		block = [2]any{"content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}}}
		delta = [2]any{"content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": s.sc.Final}}}
	}
	sse(w, [][2]any{
		start, block, delta,
		{"content_block_stop", map[string]any{"type": "content_block_stop", "index": 0}},
		{"message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop}, "usage": map[string]any{"output_tokens": 5}}},
		{"message_stop", map[string]any{"type": "message_stop"}},
	})
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
	if !decode(w, r, &req) {
		return
	}
	offered := false
	for _, t := range req.Tools {
		offered = offered || t.Name == "exec_command"
	}
	results := 0
	for _, it := range req.Input {
		if it["type"] == "function_call_output" {
			results++
			id, _ := it["call_id"].(string)
			s.record(id, text(it["output"]))
		}
	}
	var item map[string]any
	if cmd, num, ok := s.sc.next(results); offered && ok {
		item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%d", num), "call_id": fmt.Sprintf("call_%d", num), "name": "exec_command",
			"arguments": arguments(s.args("cmd", cmd, nil))}
	} else {
		item = map[string]any{"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": s.sc.Final, "annotations": []any{}}}}
	}
	sse(w, [][2]any{
		{"response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_1", "object": "response", "status": "in_progress", "output": []any{}}}},
		{"response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item}},
		{"response.completed", map[string]any{"type": "response.completed", "response": map[string]any{
			"id": "resp_1", "object": "response", "status": "completed", "output": []any{item},
			"usage": map[string]any{"input_tokens": 10, "output_tokens": 5, "total_tokens": 15}}}},
	})
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
	if !decode(w, r, &req) {
		return
	}
	var props map[string]any
	offered := false
	for _, t := range req.Tools {
		if t.Function.Name == "bash" {
			offered, props = true, t.Function.Parameters.Properties
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
	if cmd, num, ok := s.sc.next(results); offered && ok {
		var more map[string]any
		if _, ok := props["description"]; ok { // Crush requires it; filter to the schema
			more = map[string]any{"description": "run the scenario's command"}
		}
		args := s.args("command", cmd, more)
		events = [][2]any{
			{"", chunk(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
				"index": 0, "id": fmt.Sprintf("call_%d", num), "type": "function", "function": map[string]any{"name": "bash", "arguments": ""}}}}, nil)},
			{"", chunk(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "function": map[string]any{"arguments": arguments(args)}}}}, nil)},
			{"", chunk(map[string]any{}, "tool_calls")},
		}
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
