package toolcat

import "testing"

// TestAnnotationsText: a repeated hint shows as its last value, as clients
// read it, and the tool keeps its other annotations.
func TestAnnotationsText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ raw, want string }{
		{`{"readOnlyHint":true,"destructiveHint":false}`, "destructive=false readOnly"},
		{`{"destructiveHint":false,"destructiveHint":true,"title":"x"}`, `destructive title="x"`},
		{`[]`, ""},
		{``, ""},
	} {
		if got := annotationsText([]byte(tc.raw)); got != tc.want {
			t.Errorf("annotationsText(%s) = %q, want %q", tc.raw, got, tc.want)
		}
	}
}
