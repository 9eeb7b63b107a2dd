// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package mockmodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// ---- Gemini generateContent / streamGenerateContent ----
//
// Gemini CLI (@google/gemini-cli, through @google/genai) posts to
// <base>/v1beta/models/<model>:streamGenerateContent?alt=sse (the
// agent's turns, server-sent events) and :generateContent (its side
// requests: next-speaker and loop checks, summaries), with the function
// results of earlier turns as functionResponse parts of the contents
// (measured in its bundle: createFunctionResponsePart echoes the call's
// id). Its shell tool is run_shell_command {command}.

// geminiShell is Gemini CLI's shell tool and its command key.
const geminiShell, geminiShellKey = "run_shell_command", "command"

type geminiRequest struct {
	Contents []struct {
		Role  string           `json:"role"`
		Parts []map[string]any `json:"parts"`
	} `json:"contents"`
	Tools []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
}

// gemini serves POST /v1beta/models/{model_action}: the action after
// the colon says streamed or not; countTokens gets a count.
func (s *Server) gemini(w http.ResponseWriter, r *http.Request) {
	_, action, _ := strings.Cut(r.PathValue("model_action"), ":")
	if action == "countTokens" {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"totalTokens": 10})
		return
	}
	var req geminiRequest
	if !s.decode(w, r, &req) {
		return
	}
	var tools []string
	for _, t := range req.Tools {
		for _, f := range t.FunctionDeclarations {
			tools = append(tools, f.Name)
		}
	}
	results := 0
	for _, c := range req.Contents {
		for i, p := range c.Parts {
			fr, ok := p["functionResponse"].(map[string]any)
			if !ok {
				continue
			}
			results++
			id, _ := fr["id"].(string)
			if id == "" {
				id = fmt.Sprintf("%v_%d", fr["name"], i)
			}
			b, _ := json.Marshal(fr["response"])
			s.record(id, string(b))
		}
	}
	var parts []any
	finish := "STOP"
	if t, num := s.due(results, tools, geminiShell); t != nil {
		for i, c := range t {
			name, input := s.call(c, geminiShell, geminiShellKey, nil)
			parts = append(parts, map[string]any{"functionCall": map[string]any{
				"id": fmt.Sprintf("call_%d_%d", num, i), "name": name, "args": input}})
		}
	} else {
		parts = []any{map[string]any{"text": s.sc.Final}}
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{"index": 0, "finishReason": finish,
			"content": map[string]any{"role": "model", "parts": parts}}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  "mock-model",
	}
	if action == "streamGenerateContent" {
		sse(w, [][2]any{{"", resp}})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}
