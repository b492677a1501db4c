package store

import (
	"strconv"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// TestIntToken checks that an integer id is keyed by value only when its
// text is the one strconv writes, so that distinct tokens stay distinct.
func TestIntToken(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{"0", "1", "-1", "42", "123456789012345678", "-99"} {
		n, ok := intToken(raw)
		if !ok || strconv.FormatInt(n, 10) != raw {
			t.Errorf("intToken(%q) = %d, %v", raw, n, ok)
		}
	}
	for _, raw := range []string{"", "-0", "01", "-01", "+1", "1.0", "1e3", `"1"`, "1234567890123456789", " 1", "-", "null"} {
		if n, ok := intToken(raw); ok {
			t.Errorf("intToken(%q) = %d, true; want a text key", raw, n)
		}
	}
}

// TestIDsDistinctTokens checks that ids that differ as tokens map to
// different calls, whatever their numeric value.
func TestIDsDistinctTokens(t *testing.T) {
	t.Parallel()
	tokens := []string{"1", `"1"`, "01", "1.0", "-0", "0", "+1", "1e0"}
	m := newIDs()
	for i, raw := range tokens {
		m.set(capture.C2S, "", raw, i)
	}
	for i, raw := range tokens {
		if got, ok := m.lookup(capture.C2S, "", raw); !ok || got != i {
			t.Errorf("lookup(%s) = %d, %v; want %d", raw, got, ok, i)
		}
	}
	if _, ok := m.lookup(capture.S2C, "", "1"); ok {
		t.Error("an id of one direction found in the other")
	}
	if _, ok := m.lookup(capture.C2S, "conn-2", "1"); ok {
		t.Error("an id of one connection found in another")
	}
}
