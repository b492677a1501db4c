package mcpserve

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseURI(t *testing.T) {
	for _, c := range []struct {
		uri   string
		id    string
		seq   uint64
		frame bool
		ok    bool
	}{
		{"mcptrail://sessions/abc", "abc", 0, false, true},
		{"mcptrail://sessions/abc/frames/12", "abc", 12, true, true},
		{"mcptrail://sessions/a%2Fb", "", 0, false, false},
		{"mcptrail://sessions/a%20b/frames/1", "a b", 1, true, true},
		{"mcptrail://sessions/", "", 0, false, false},
		{"mcptrail://sessions/abc/frames/", "", 0, false, false},
		{"mcptrail://sessions/abc/frames/-1", "", 0, false, false},
		{"mcptrail://sessions/abc/frames/99999999999999999999", "", 0, false, false},
		{"mcptrail://sessions/%zz", "", 0, false, false},
		{"file:///etc/passwd", "", 0, false, false},
	} {
		id, seq, frame, err := parseURI(c.uri)
		if (err == nil) != c.ok || c.ok && (id != c.id || seq != c.seq || frame != c.frame) {
			t.Errorf("parseURI(%q) = %q %d %v %v, want %q %d %v ok %v", c.uri, id, seq, frame, err, c.id, c.seq, c.frame, c.ok)
		}
	}
}

// FuzzParseURI: any URI parses without a panic into an id without a
// slash, or a bounded error; a frame URI FrameURI writes reads back.
func FuzzParseURI(f *testing.F) {
	for _, s := range []string{"mcptrail://sessions/abc", "mcptrail://sessions/abc/frames/3", "mcptrail://sessions/%41/frames/0", "x"} {
		f.Add(s, uint64(7))
	}
	f.Fuzz(func(t *testing.T, uri string, seq uint64) {
		id, _, _, err := parseURI(uri)
		if err != nil {
			if len(err.Error()) > 200 || !utf8.ValidString(err.Error()) {
				t.Fatalf("error %q", err)
			}
		} else if id == "" || strings.Contains(id, "/") {
			t.Fatalf("parseURI(%q): id %q", uri, id)
		}
		if id == "" {
			return
		}
		back, s2, frame, err := parseURI(FrameURI(id, seq))
		if err != nil || back != id || s2 != seq || !frame {
			t.Fatalf("FrameURI(%q, %d) reads back %q %d %v %v", id, seq, back, s2, frame, err)
		}
	})
}
