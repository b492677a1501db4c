package mcpcat

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/events"
)

// api is a scripted stand-in for the MCPcat API: it answers each POST
// with the next status queued for its event type (202 once the queue is
// empty), a 400 with the event type it did not take, and records what it
// got.
type api struct {
	mu       sync.Mutex
	statuses map[string][]int
	got      []request
}

type request struct {
	Method, Path, Auth, ContentType, EventType string
	Status                                     int
}

func (a *api) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	var body struct {
		EventType string `json:"event_type"`
	}
	if err == nil {
		err = json.Unmarshal(b, &body)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	status := http.StatusAccepted
	if q := a.statuses[body.EventType]; len(q) > 0 {
		status, a.statuses[body.EventType] = q[0], q[1:]
	}
	a.got = append(a.got, request{r.Method, r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("Content-Type"), body.EventType, status})
	w.WriteHeader(status)
	switch status {
	case http.StatusBadRequest:
		said, _ := json.Marshal(map[string][]string{"event_type": {fmt.Sprintf("%q is not a valid choice.", body.EventType)}})
		_, _ = w.Write(said)
	case http.StatusNotFound:
		_, _ = io.WriteString(w, `{"detail":"Not found."}`)
	default:
		_, _ = io.WriteString(w, `{"status":"accepted"}`)
	}
}

// TestSink checks the requests (one event each, the endpoint, the token
// header), that 5xx and 429 are retried, and that a 400 or 404 is counted
// by status and type as rejected (not failed), not retried, and reported
// in one line with what the API answered.
func TestSink(t *testing.T) {
	t.Parallel()
	a := &api{statuses: map[string][]int{
		"mcp:tools/call":          {503, 429},
		events.TypeElicitCreate:   {400},
		events.TypeElicitResponse: {400},
		"mcp:resources/subscribe": {404},
	}}
	srv := httptest.NewServer(a)
	defer srv.Close()
	s := New(&Options{BaseURL: srv.URL + "/", Project: "proj_1", Token: "tok", MinBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond})
	in := make(chan events.Event, 8) // one of each type; mcp:server/discover is not sent
	for i, typ := range []string{"mcp:tools/call", events.TypeElicitCreate, events.TypeElicitResponse, "mcp:resources/subscribe", "mcp:server/discover", "mcp:tools/list"} {
		in <- events.Event{ID: "s-" + string(rune('1'+i)), SessionID: "s", EventType: typ, Timestamp: at}
	}
	close(in)
	err := s.Run(context.Background(), in)

	post := func(typ string, status int) request {
		return request{"POST", "/v1/public/events/", "Token tok", "application/json", typ, status}
	}
	want := []request{
		post("mcp:tools/call", 503), post("mcp:tools/call", 429), post("mcp:tools/call", 202),
		post(events.TypeElicitCreate, 400), post(events.TypeElicitResponse, 400),
		post("mcp:resources/subscribe", 404), post("mcp:tools/list", 202),
	}
	if diff := cmp.Diff(want, a.got); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	if s.Delivered() != 2 || s.Failed() != 0 || s.Rejected() != 3 || s.Retries() != 2 {
		t.Errorf("delivered %d, failed %d, rejected %d, retries %d; want 2, 0, 3, 2", s.Delivered(), s.Failed(), s.Rejected(), s.Retries())
	}
	wantRejected := map[string]int{"HTTP 400 mcp:elicitation/create": 1, "HTTP 400 mcp:elicitation/response": 1, "HTTP 404 mcp:resources/subscribe": 1}
	if diff := cmp.Diff(wantRejected, s.Rejections()); diff != "" {
		t.Errorf("rejections (-want +got):\n%s", diff)
	}
	wantErr := "3 events rejected by the API at " + srv.URL + "/v1/public/events/, not retried: " +
		"HTTP 400 for 1 mcp:elicitation/create, 1 mcp:elicitation/response (its published event_type enum does not list the elicitation types yet; " +
		`it answered: {"event_type":["\"mcp:elicitation/create\" is not a valid choice."]}), ` +
		`and HTTP 404 for 1 mcp:resources/subscribe (it answered: {"detail":"Not found."}); ` +
		"1 event not sent, of types the API does not list (mcp:server/discover)"
	if err == nil || err.Error() != wantErr {
		t.Errorf("Run error = %v, want %q", err, wantErr)
	}
	if diff := cmp.Diff(map[string]int{"mcp:server/discover": 1}, s.Skipped()); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
	if err != nil && strings.Contains(err.Error(), "\n") {
		t.Errorf("Run error spans several lines: %q", err)
	}
}

// TestSinkGivesUpAtDeadline checks that an API that keeps failing costs
// no more than the flush deadline, and that what was lost is reported.
func TestSinkGivesUpAtDeadline(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
	}))
	defer srv.Close()
	s := New(&Options{BaseURL: srv.URL, Project: "p", MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	in := make(chan events.Event, 2)
	in <- events.Event{ID: "a", SessionID: "s", EventType: "mcp:ping", Timestamp: at}
	in <- events.Event{ID: "b", SessionID: "s", EventType: "mcp:ping", Timestamp: at}
	close(in)
	err := s.Run(ctx, in)
	if s.Delivered() != 0 || s.Failed() != 2 {
		t.Errorf("delivered %d, failed %d; want 0, 2", s.Delivered(), s.Failed())
	}
	if err == nil || !strings.Contains(err.Error(), "2 events not delivered") {
		t.Errorf("Run error = %v, want 2 events not delivered", err)
	}
}

// TestSinkRejectedAndLost checks that an event the API rejected and one
// given up on are each counted once: Rejected and Failed, and both in the
// error.
func TestSinkRejectedAndLost(t *testing.T) {
	t.Parallel()
	a := &api{statuses: map[string][]int{events.TypeElicitCreate: {400}, "mcp:ping": slices.Repeat([]int{502}, 5000)}}
	srv := httptest.NewServer(a)
	defer srv.Close()
	s := New(&Options{BaseURL: srv.URL, Project: "p", MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	in := make(chan events.Event, 2)
	in <- events.Event{ID: "a", SessionID: "s", EventType: events.TypeElicitCreate, Timestamp: at}
	in <- events.Event{ID: "b", SessionID: "s", EventType: "mcp:ping", Timestamp: at}
	close(in)
	err := s.Run(ctx, in)
	if s.Delivered() != 0 || s.Rejected() != 1 || s.Failed() != 1 {
		t.Errorf("delivered %d, rejected %d, failed %d; want 0, 1, 1", s.Delivered(), s.Rejected(), s.Failed())
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.got[0].EventType != events.TypeElicitCreate || a.got[1].EventType != "mcp:ping" {
		t.Errorf("requests %+v, want the question once, then pings", a.got)
	}
	want := []string{"1 event rejected by the API at ", "HTTP 400 for 1 mcp:elicitation/create (", "; 1 event not delivered to "}
	for _, w := range want {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("Run error = %v, want it to hold %q", err, w)
		}
	}
}

// TestNoToken checks that no Authorization header is sent without a
// token (the API also takes anonymous posts), and the default base URL.
func TestNoToken(t *testing.T) {
	t.Parallel()
	a := &api{}
	srv := httptest.NewServer(a)
	defer srv.Close()
	if got := New(&Options{Project: "p"}).URL(); got != "https://api.agentcat.com/v1/public/events/" {
		t.Errorf("default URL %q", got)
	}
	s := New(&Options{BaseURL: srv.URL, Project: "p"})
	in := make(chan events.Event, 1)
	in <- events.Event{ID: "a", SessionID: "s", EventType: "mcp:ping", Timestamp: at}
	close(in)
	if err := s.Run(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	if len(a.got) != 1 || a.got[0].Auth != "" {
		t.Errorf("requests %+v, want one without Authorization", a.got)
	}
}

// TestOneLine checks how an answer is reported: on one line, white space
// and control characters folded, invalid UTF-8 left out, cut at
// answerBytes.
func TestOneLine(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", answerBytes) // 2 bytes each: the cut splits none
	tests := []struct{ in, want string }{
		{"", ""},
		{"{\"detail\":\n  \"bad\"}\r\n", `{"detail": "bad"}`},
		{"a\x1b[31mb\tc\x00d", "a [31mb c d"},
		{"ok\xff\xfe", "ok"},
		{long, strings.Repeat("é", answerBytes/2) + "…"},
		{"x" + long, "x" + strings.Repeat("é", answerBytes/2-1) + "…"}, // the cut rune is left out
	}
	for _, tt := range tests {
		b := []byte(tt.in)
		if len(b) > answerBytes {
			b = b[:answerBytes] // what post reads
		}
		if got := oneLine(b); got != tt.want {
			t.Errorf("oneLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
