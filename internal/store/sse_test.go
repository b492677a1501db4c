package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// TestHTTPSSE: behind either proxy, an endpoint event makes the session
// one of the 2024-11-05 HTTP+SSE transport (Session.SSE); the event and
// the 202 "Accepted" answering each message POSTed to the endpoint are
// status frames, not invalid ones; the answers on the stream pair with
// the POSTed requests; a frame is SSE when it crossed that transport.
func TestHTTPSSE(t *testing.T) {
	t.Parallel()
	stream := func(url string) *capture.HTTP {
		return &capture.HTTP{Exchange: "x1", Method: "GET", Path: "/sse", Status: 200, URL: url,
			Headers: map[string]string{"Content-Type": "text/event-stream"}}
	}
	post := func(ex, url string, status int) *capture.HTTP {
		return &capture.HTTP{Exchange: ex, Method: "POST", Path: "/message", Status: status, URL: url}
	}
	tests := map[string]struct {
		get, post, endpoint string // the GET's and the POST's URLs (forward proxy), the event's data
		want                SSETransport
		sse                 []bool // Frame.SSE of each frame
	}{
		"reverse proxy, relative URI": {endpoint: "/message?sessionId=1",
			want: SSETransport{Seq: 2, Endpoint: "/message"}, sse: []bool{false, true, true, true, false}},
		"reverse proxy, absolute URI: its path": {endpoint: "http://127.0.0.1:9/message?sessionId=1",
			want: SSETransport{Seq: 2, Endpoint: "/message"}, sse: []bool{false, true, true, true, false}},
		"forward proxy: the URL": {get: "http://h:1/sse", post: "http://h:1/message?sessionId=1", endpoint: "/message?sessionId=1",
			want: SSETransport{Seq: 2, Endpoint: "http://h:1/message"}, sse: []bool{false, true, true, true, false}},
		"forward proxy, another host's /message is not the endpoint": {get: "http://h:1/sse", post: "http://other:1/message", endpoint: "/message?sessionId=1",
			want: SSETransport{Seq: 2, Endpoint: "http://h:1/message"}, sse: []bool{false, true, false, false, false}},
		"no URI: the transport without an endpoint": {endpoint: "mailto:x@y",
			want: SSETransport{Seq: 2}, sse: []bool{false, true, false, false, false}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			get := stream(tc.get)
			get.Status = 0
			ev := stream(tc.get)
			ev.Event = "endpoint"
			steps := []step{
				{dir: capture.C2S, http: get},
				{dir: capture.S2C, raw: tc.endpoint, http: ev},
				{dir: capture.C2S, raw: req("1", "tools/list", `{}`), http: post("x2", tc.post, 0)},
				{dir: capture.S2C, raw: "Accepted", http: post("x2", tc.post, 202)},
				{dir: capture.S2C, raw: res("1", `{"tools":[]}`), http: stream(tc.get)},
			}
			var sse []bool
			var kinds []Kind
			snap := loadBytes(t, captureOf(t, steps), &Options{OnFrame: func(f *Frame) {
				sse = append(sse, f.SSE)
				kinds = append(kinds, f.Kind)
			}})
			if diff := cmp.Diff(tc.want, snap.Session.SSE); diff != "" {
				t.Errorf("Session.SSE (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.sse, sse); diff != "" {
				t.Errorf("Frame.SSE (-want +got):\n%s", diff)
			}
			if kinds[1] != KindHTTPStatus {
				t.Errorf("the endpoint event is a %s frame, want http-status", kinds[1])
			}
			if tc.sse[3] && kinds[3] != KindHTTPStatus {
				t.Errorf("the 202 Accepted is a %s frame, want http-status", kinds[3])
			}
			calls := snap.Calls.Slice()
			if len(calls) != 1 || calls[0].Status != StatusOK || calls[0].ResponseSeq != 5 {
				t.Errorf("calls %v, want tools/list answered ok at #5", callLines(calls))
			}
		})
	}
}
