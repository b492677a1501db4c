package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/tui/source"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// TestTUIExport is the TUI's `e`: the session shown is written as JSON or
// text into a new file of the working directory, never over an existing
// one; a session read from standard input cannot be.
func TestTUIExport(t *testing.T) {
	capt := tuitest.Capture(t, "elicit-seed", tuitest.ReadTranscript(t, tuitest.Transcript("elicit-seed")), true)
	path := filepath.Join(t.TempDir(), "seed.jsonl")
	if err := os.WriteFile(path, capt, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := source.Open(context.Background(), path, "", &source.Options{Rules: rules.Default()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var d ui.Data
	for next := range s.Updates() {
		d = next
	}
	t.Chdir(t.TempDir())
	ios := &IOStreams{In: strings.NewReader(""), Out: new(bytes.Buffer), ErrOut: new(bytes.Buffer), Getenv: func(string) string { return "" }, Now: time.Now}
	export := tuiExport(newFactory(ios), redactFlags{}, nil, rules.Default())

	for _, tt := range []struct{ format, want string }{
		{"json", "elicit-seed-tuitest.json"},
		{"json", "elicit-seed-tuitest-2.json"},
		{"text", "elicit-seed-tuitest.txt"},
	} {
		msg, err := export(context.Background(), d, tt.format)
		if err != nil || msg != "exported to "+tt.want {
			t.Fatalf("export %s = %q, %v; want exported to %s", tt.format, msg, err, tt.want)
		}
		b, err := os.ReadFile(tt.want)
		if err != nil {
			t.Fatal(err)
		}
		if tt.format == "json" {
			var x struct{ Calls []json.RawMessage }
			if err := json.Unmarshal(b, &x); err != nil || len(x.Calls) != 6 {
				t.Errorf("%s: %d calls, %v", tt.want, len(x.Calls), err)
			}
		} else if !strings.Contains(string(b), "create_account") {
			t.Errorf("%s holds no call:\n%s", tt.want, b)
		}
	}
	d.Path = ""
	if _, err := export(context.Background(), d, "json"); err == nil || !strings.Contains(err.Error(), "standard input") {
		t.Errorf("exporting a session read from standard input: %v", err)
	}
}
