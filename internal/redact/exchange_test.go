package redact_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
)

// TestExchangeRecord: key, JSONPath and value rules reach an exchange
// record's bodies, URL and headers, and the record gets its own copy.
func TestExchangeRecord(t *testing.T) {
	t.Parallel()
	r, err := redact.New(&redact.Options{Keys: []string{"client_name"}, Paths: []string{"$.scope"}, Values: res(`sk-[a-z]+`)})
	if err != nil {
		t.Fatal(err)
	}
	orig := &capture.Exchange{
		Method: "POST", URL: "https://as.example/register?hint=sk-abc",
		ReqHeaders: map[string]string{"Content-Type": "application/json", "X-Key": "sk-abc"},
		ReqBody:    `{"client_name":"secret app","scope":"mcp:all","redirect_uris":["http://127.0.0.1/cb"]}`,
		RespBody:   `{"client_id":"c1","note":"sk-xyz"}`,
	}
	keep := *orig
	rec := &capture.Record{Type: capture.TypeExchange, Seq: 3, Exchange: orig}
	if !r.Record(rec) || !rec.Redacted {
		t.Fatal("nothing redacted")
	}
	want := &capture.Exchange{
		Method: "POST", URL: "https://as.example/register?hint=[REDACTED]",
		ReqHeaders: map[string]string{"Content-Type": "application/json", "X-Key": "[REDACTED]"},
		ReqBody:    `{"client_name":"[REDACTED]","scope":"[REDACTED]","redirect_uris":["http://127.0.0.1/cb"]}`,
		RespBody:   `{"client_id":"c1","note":"[REDACTED]"}`,
	}
	if diff := cmp.Diff(want, rec.Exchange); diff != "" {
		t.Errorf("exchange (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(&keep, orig); diff != "" {
		t.Errorf("the original exchange changed (-before +after):\n%s", diff)
	}
}
