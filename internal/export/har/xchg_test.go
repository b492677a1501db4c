package harexport

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// TestForwardCapture: the HAR of a forward-proxy capture holds every HTTP
// exchange in capture order, the MCP ones at the absolute URLs the proxy
// recorded and the OAuth ones (metadata, registration, authorization,
// token) from their exchange records, bodies as redacted; it validates
// against the HAR 1.2 schema.
func TestForwardCapture(t *testing.T) {
	t.Parallel()
	hdr, recs, _, err := capture.ReadFile("../../../testdata/oauth/oauth-clean.capture.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	out := render(t, hdr, recs)
	testbin.ValidateHAR(t, testbin.HARSchema(t), out)
	var got, want []string
	for _, e := range decode(t, out).Log.Entries {
		got = append(got, e.Request.Method+" "+e.Request.URL)
	}
	seen := map[string]bool{}
	for _, r := range recs {
		switch {
		case r.Type == capture.TypeExchange:
			want = append(want, r.Exchange.Method+" "+r.Exchange.URL)
		case r.Type == capture.TypeFrame && r.HTTP != nil && !seen[r.HTTP.Exchange]:
			seen[r.HTTP.Exchange] = true
			want = append(want, r.HTTP.Method+" "+r.HTTP.URL)
		}
	}
	if len(want) < 8 {
		t.Fatalf("the capture has %d exchanges; want a whole flow", len(want))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
}
