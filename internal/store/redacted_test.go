package store

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
)

// TestRedactedRequestState checks that a requestState redaction replaced
// is not reported as changed: the echo cannot be verified.
func TestRedactedRequestState(t *testing.T) {
	t.Parallel()
	const ans = `,"inputResponses":{"a":{"action":"accept","content":{"x":"[REDACTED]"}}}`
	tests := []struct {
		name                 string
		interimState         string
		interimRed, retryRed bool
		retryState           string
		want                 []string
	}{
		{name: "interim state redacted", interimState: "[REDACTED]", interimRed: true, retryState: "real", want: nil},
		{name: "retry state partly redacted", interimState: "st1.abc", retryState: "st1.[REDACTED]", retryRed: true, want: nil},
		{name: "placeholder without the mark is data", interimState: "[REDACTED]", retryState: "real", want: []string{"mrtr-state-changed@3"}},
		{name: "redacted records, states really differ", interimState: "a", interimRed: true, retryState: "b", retryRed: true, want: []string{"mrtr-state-changed@3"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			frames := []struct {
				dir      capture.Dir
				msg      string
				redacted bool
			}{
				{capture.C2S, tool("1", "t", `{}`, ""), false},
				{capture.S2C, inputRequired("1", elicit("a"), tc.interimState), tc.interimRed},
				{capture.C2S, tool("2", "t", `{}`, ans+`,"requestState":"`+tc.retryState+`"`), tc.retryRed},
				{capture.S2C, done("2"), false},
			}
			s := New(nil)
			s.Ingest(&capture.Record{Type: capture.TypeSession, Time: t0, SessionID: "s"})
			for i, f := range frames {
				s.Ingest(&capture.Record{Type: capture.TypeFrame, Seq: uint64(i + 1), Time: t0, Dir: f.dir,
					Msg: jsontext.Value(f.msg), Size: len(f.msg), Redacted: f.redacted})
			}
			var got []string
			for _, f := range s.Snapshot().Findings.Slice() {
				if f.Rule == "mrtr-state-changed" {
					got = append(got, findingLines([]finding.Finding{f})...)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
