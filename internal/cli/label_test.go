package cli

import (
	"testing"

	"github.com/mcptrail/mcptrail/internal/redact"
)

// TestSessionLabel: under redaction, the label comes only from the
// scrubbed command (else the program's name), so no secret names a
// session or its file.
func TestSessionLabel(t *testing.T) {
	t.Parallel()
	red, err := redact.New(&redact.Options{Secrets: true})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		label string
		argv  []string
		red   redact.Redactor
		want  string
	}{
		{"", []string{"sh", "-c", "node --token CANARY x.js"}, red, "x"},
		{"", []string{"sh", "-c", "API_KEY=CANARY node server.mjs"}, red, "server"},
		{"", []string{"node", "--token", "CANARY"}, red, "node"},
		{"", []string{"node", "--token=CANARY"}, red, "node"},
		{"", []string{"CANARY_TOKEN=CANARY"}, red, "session"},
		{"", []string{"npx", "mcp-remote", "https://u:CANARY@h/mcp?token=CANARY"}, red, "mcp-remote"},
		{"CANARY", []string{"node", "--token", "CANARY", "x.js"}, red, "[REDACTED]"},
		{"team", []string{"node", "--token", "CANARY", "x.js"}, red, "team"},
		{"", []string{"node", "--token", "CANARY"}, nil, "CANARY"},
	}
	for _, tc := range tests {
		if got := sessionLabel(tc.label, tc.argv, tc.red); got != tc.want {
			t.Errorf("sessionLabel(%q, %q) = %q, want %q", tc.label, tc.argv, got, tc.want)
		}
	}
}
