package mcp

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

func TestParseTask(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     Task
	}{
		{"create", `{"resultType":"task","taskId":"t-1","status":"working","createdAt":"x","lastUpdatedAt":"x","ttlMs":60000,"pollIntervalMs":5000}`,
			Task{ID: "t-1", HasID: true, Status: TaskWorking, PollIntervalMS: 5000, HasPollInterval: true, TTLMS: 60000, HasTTL: true}},
		{"input required", `{"taskId":"t","status":"input_required","ttlMs":null,"inputRequests":{"b":{"method":"sampling/createMessage"},"a":{"method":"elicitation/create","params":{}}}}`,
			Task{ID: "t", HasID: true, Status: TaskInputRequired, InputRequests: []InputRequest{{"a", MethodElicit}, {"b", MethodSampling}}}},
		{"completed tool error", `{"taskId":"t","status":"completed","result":{"content":[],"isError":true}}`,
			Task{ID: "t", HasID: true, Status: TaskCompleted, HasResult: true, IsError: true}},
		{"failed", `{"taskId":"t","status":"failed","error":{"code":-32603,"message":"m"}}`,
			Task{ID: "t", HasID: true, Status: TaskFailed, HasError: true, ErrorCode: -32603}},
		{"bad numbers", `{"taskId":7,"status":true,"pollIntervalMs":1.5,"ttlMs":-1}`, Task{}},
		{"not an object", `[1,2]`, Task{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, ParseTask(jsontext.Value(tt.in))); diff != "" {
				t.Errorf("ParseTask(%s) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestInputRequestSums(t *testing.T) {
	t.Parallel()
	a := InputRequestSums(jsontext.Value(`{"inputRequests":{"k":{"method":"elicitation/create","params":{"message":"m","mode":"form"}},"j":{"method":"roots/list"}}}`))
	b := InputRequestSums(jsontext.Value(`{"inputRequests":{ "k" : {"params":{"mode":"form", "message":"m"},"method":"elicitation/create"}}}`))
	c := InputRequestSums(jsontext.Value(`{"inputRequests":{"k":{"method":"elicitation/create","params":{"message":"other","mode":"form"}}}}`))
	if len(a) != 2 || a["k"] != b["k"] {
		t.Errorf("the same request reordered sums differently: %v vs %v", a, b)
	}
	if a["k"] == c["k"] {
		t.Errorf("two distinct requests share the sum %x", a["k"])
	}
	if got := InputRequestSums(jsontext.Value(`{"status":"working"}`)); got != nil {
		t.Errorf("a state without inputRequests gave %v", got)
	}
}

func TestDeclaresTasks(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{
		`{"extensions":{"io.modelcontextprotocol/tasks":{}}}`:   true,
		`{"extensions":{"io.modelcontextprotocol/tasks":true}}`: false,
		`{"extensions":{}}`: false,
		`{}`:                false,
	} {
		if got := DeclaresTasks(jsontext.Value(in)); got != want {
			t.Errorf("DeclaresTasks(%s) = %v, want %v", in, got, want)
		}
	}
}

func TestTaskID(t *testing.T) {
	t.Parallel()
	if id, ok := TaskID(jsontext.Value(`{"taskId":"a\u0062"}`)); !ok || id != "ab" {
		t.Errorf("TaskID = %q, %v; want ab, true", id, ok)
	}
	if _, ok := TaskID(jsontext.Value(`{"taskId":1}`)); ok {
		t.Error("TaskID of a number reported ok")
	}
}

// FuzzParseTask: any bytes parse without a panic, and a parsed status is
// either known or reported as unknown consistently.
func FuzzParseTask(f *testing.F) {
	for _, s := range []string{
		`{"resultType":"task","taskId":"t-1","status":"working","ttlMs":60000,"pollIntervalMs":5000}`,
		`{"taskId":"t","status":"input_required","inputRequests":{"a":{"method":"elicitation/create"}}}`,
		`{"taskId":"t","status":"failed","error":{"code":-32603}}`,
		`{"taskId":"t","status":"completed","result":{"isError":true}}`,
		`{"taskId":`, `[]`, `"x"`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		task := ParseTask(jsontext.Value(b))
		if !task.HasID && task.ID != "" {
			t.Fatalf("ID %q without HasID", task.ID)
		}
		if task.PollIntervalMS < 0 || task.TTLMS < 0 {
			t.Fatalf("negative interval or ttl: %+v", task)
		}
		if TaskTerminal(task.Status) && !TaskStatusKnown(task.Status) {
			t.Fatalf("terminal status %q not known", task.Status)
		}
		sums := InputRequestSums(jsontext.Value(b))
		if jsontext.Value(b).IsValid() && len(sums) != len(task.InputRequests) {
			t.Fatalf("%d input sums for %d inputRequests", len(sums), len(task.InputRequests))
		}
		_, _ = TaskID(jsontext.Value(b))
		_ = DeclaresTasks(jsontext.Value(b))
	})
}
