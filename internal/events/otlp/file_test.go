package otlp

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHexIDs checks that only the values of id members are re-encoded
// from base64 to hex, wherever they are, and nothing else changes.
func TestHexIDs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, in, want string }{
		{"ids", `{"traceId":"AAEC","spanId":"AQ==","parentSpanId":""}`, `{"traceId":"000102","spanId":"01","parentSpanId":""}`},
		{"nested", `{"a":[{"b":{"spanId":"/w=="}}]}`, `{"a":[{"b":{"spanId":"ff"}}]}`},
		{"names as values", `{"key":"traceId","value":{"stringValue":"spanId"},"l":["traceId","AAEC"]}`,
			`{"key":"traceId","value":{"stringValue":"spanId"},"l":["traceId","AAEC"]}`},
		{"whitespace", "{ \"n\" :  1 ,\n \"s\": \"x\" }", `{"n":1,"s":"x"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := hexIDs([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
