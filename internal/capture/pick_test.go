package capture

import (
	"errors"
	"testing"
)

// TestPickSession: the last session by default; a prefix picks the one
// session it names; none or several is a PrefixError with the matches.
func TestPickSession(t *testing.T) {
	t.Parallel()
	idx := []Session{{Header: Record{SessionID: "aa01"}}, {Header: Record{SessionID: "aa02"}}, {Header: Record{SessionID: "bb03"}}}
	if s, err := PickSession(idx, ""); err != nil || s.Header.SessionID != "bb03" {
		t.Errorf("PickSession(\"\") = %v, %v; want the last, bb03", s, err)
	}
	if s, err := PickSession(idx, "aa02"); err != nil || s != &idx[1] {
		t.Errorf("PickSession(aa02) = %v, %v; want idx[1]", s, err)
	}
	for want, matches := range map[string]int{"aa": 2, "cc": 0} {
		_, err := PickSession(idx, want)
		var pe *PrefixError
		if !errors.As(err, &pe) || pe.Prefix != want || len(pe.Matches) != matches {
			t.Errorf("PickSession(%q) = %v; want a PrefixError with %d matches", want, err, matches)
		}
	}
	if got := SessionFileID("/s/20260728T090000Z-my-label-abcdef0123456789.jsonl"); got != "abcdef0123456789" {
		t.Errorf("SessionFileID = %q, want abcdef0123456789", got)
	}
}
