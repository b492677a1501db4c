package clientconfig

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// seed adds the testdata configurations of format f (and their wrapped
// goldens) to the fuzz corpus.
func seed(f *testing.F, pattern string) {
	files, err := filepath.Glob(filepath.Join("testdata/wrap", pattern))
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// roundTrip checks the properties every document must keep, whatever its
// bytes: no panic; wrapping twice is wrapping once; the wrapped document
// reads back; and where unwrap has nothing to undo in src, unwrapping the
// wrapped document gives src back byte for byte.
func roundTrip(t *testing.T, src []byte, l Layout) []byte {
	opts := &Options{Mcptrail: "/opt/mcptrail", Capture: "{label}-{time}.jsonl"}
	wrapped, _, err := Wrap(src, l, nil, opts)
	if err != nil {
		return nil // not a document: an error, never a panic
	}
	if _, err := servers(wrapped, l); err != nil {
		t.Fatalf("the wrapped document does not read: %v\n%s", err, wrapped)
	}
	again, _, err := Wrap(wrapped, l, nil, opts)
	if err != nil || !bytes.Equal(again, wrapped) {
		t.Fatalf("wrapping twice changed the document (err %v):\n%s\n---\n%s", err, wrapped, again)
	}
	if same, _, err := Unwrap(src, l, nil, nil); err != nil || !bytes.Equal(same, src) {
		return wrapped // src holds wrapped entries already
	}
	back, _, err := Unwrap(wrapped, l, nil, nil)
	if err != nil || !bytes.Equal(back, src) {
		t.Fatalf("unwrap did not restore the original (err %v):\n%q\n---\n%q\n---\n%q", err, src, wrapped, back)
	}
	return wrapped
}

func FuzzJSONC(f *testing.F) {
	seed(f, "*.json*")
	f.Add([]byte(`{"servers":{"a":{"command":"x","args":[ // c
]}}}`))
	f.Add([]byte("\xef\xbb\xbf{\"mcpServers\":{\"a\":{\"command\":\"\\u0078\"}}}"))
	f.Add([]byte(`{"projects":{"/p":{"mcpServers":{"a":{"command":"x"}}}}}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		// The servers of a project in ~/.claude.json, at a path.
		roundTrip(t, src, Layout{Format: JSON, Servers: []string{"projects", "/p", "mcpServers"}})
		wrapped := roundTrip(t, src, Layout{Format: JSON})
		// Strict JSON stays strict JSON.
		if wrapped != nil && json.Valid(src) && !json.Valid(wrapped) {
			t.Fatalf("valid JSON became invalid:\n%s\n---\n%s", src, wrapped)
		}
	})
}

func FuzzTOML(f *testing.F) {
	seed(f, "*.toml*")
	f.Add([]byte("[mcp_servers.a]\ncommand = 'x'"))
	f.Add([]byte("mcp_servers.a.command = \"x\"\r\nmcp_servers.a.args = [\r\n]\r\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		wrapped := roundTrip(t, src, Layout{Format: TOML})
		// A document a real TOML reader accepts stays acceptable to it.
		var v, w map[string]any
		if wrapped != nil && toml.Unmarshal(src, &v) == nil {
			if err := toml.Unmarshal(wrapped, &w); err != nil {
				t.Fatalf("valid TOML became invalid (%v):\n%s\n---\n%s", err, src, wrapped)
			}
		}
	})
}
