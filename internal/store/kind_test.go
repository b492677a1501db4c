package store

import (
	"testing"

	"github.com/mcptrail/mcptrail/internal/wire"
)

// TestKindNames checks the store's kinds keep wire's names for JSON-RPC
// frames and "http-status" (the name exports print) for status frames,
// which no wire kind can be mistaken for.
func TestKindNames(t *testing.T) {
	tests := []struct {
		k    Kind
		want string
	}{
		{KindInvalid, "invalid"},
		{KindRequest, "request"},
		{KindNotification, "notification"},
		{KindResponse, "response"},
		{KindError, "error"},
		{KindBatch, "batch"},
		{KindHTTPStatus, "http-status"},
	}
	for _, tt := range tests {
		if got := tt.k.String(); got != tt.want {
			t.Errorf("Kind(%d).String() = %q, want %q", tt.k, got, tt.want)
		}
		if got, _ := tt.k.MarshalText(); string(got) != tt.want {
			t.Errorf("Kind(%d).MarshalText() = %q, want %q", tt.k, got, tt.want)
		}
	}
	if name := wire.Kind(KindHTTPStatus).String(); name != "unknown" {
		t.Errorf("KindHTTPStatus collides with wire kind %q", name)
	}
}
