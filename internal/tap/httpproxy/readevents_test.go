package httpproxy

import (
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// TestReadEvents: the data of each SSE event, multi-line data joined with
// newlines, comments and other fields ignored, CRLF and CR accepted, a
// leading byte order mark dropped, an event cut by the end of the stream
// dropped.
func TestReadEvents(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in string
		want     []string
	}{
		{"one", "event: message\ndata: {\"a\":1}\n\n", []string{`{"a":1}`}},
		{"two, crlf", "data: 1\r\n\r\nid: 7\r\ndata: 2\r\n\r\n", []string{"1", "2"}},
		{"multi-line", "data: [1,\ndata: 2]\n\n", []string{"[1,\n2]"}},
		{"comment and empty event", ": ping\n\nretry: 10\n\n", nil},
		{"no space", "data:x\n\n", []string{"x"}},
		{"torn", "data: 1\n\ndata: 2", []string{"1"}},
		{"cr", "data: 1\r\rdata: 2\r\r", []string{"1", "2"}},
		{"byte order mark", "\uFEFFdata: 1\n\n", []string{"1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// Read a byte at a time, keeping the slices given: each owns
			// its slice, so none changes as later events are read.
			var raw [][]byte
			if err := ReadEvents(iotest.OneByteReader(strings.NewReader(tc.in)), func(b []byte) { raw = append(raw, b) }); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, b := range raw {
				got = append(got, string(b))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}
