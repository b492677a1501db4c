package mcp

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseServerCard(t *testing.T) {
	t.Parallel()
	card := `{"name":"com.example/w","version":"2.1.0","remotes":[{"type":"streamable-http","url":"https://w/mcp",` +
		`"supportedProtocolVersions":["2025-11-25","2026-07-28"]},{"type":"sse","url":"https://w/sse","supportedProtocolVersions":["2025-11-25",7]}]}`
	got, ok := ParseServerCard([]byte(card))
	want := ServerCard{Name: "com.example/w", Version: "2.1.0", Remotes: []CardRemote{
		{Type: "streamable-http", URL: "https://w/mcp", SupportedProtocolVersions: []string{"2025-11-25", "2026-07-28"}},
		{Type: "sse", URL: "https://w/sse", SupportedProtocolVersions: []string{"2025-11-25"}},
	}}
	if diff := cmp.Diff(want, got); !ok || diff != "" {
		t.Errorf("ParseServerCard (-want +got), ok %v:\n%s", ok, diff)
	}
	if diff := cmp.Diff([]string{"2025-11-25", "2026-07-28"}, got.ProtocolVersions()); diff != "" {
		t.Errorf("ProtocolVersions (-want +got):\n%s", diff)
	}
	for _, bad := range []string{``, `[]`, `{"name":"x"`, `"card"`} {
		if _, ok := ParseServerCard([]byte(bad)); ok {
			t.Errorf("ParseServerCard(%q) ok", bad)
		}
	}
	cat := `{"entries":[{"type":"application/mcp-server-card+json","data":` + card + `},` +
		`{"type":"application/mcp-server-card+json","url":"https://w/card"},{"type":"application/a2a+json","data":{"name":"n"}}]}`
	if got := CatalogCards([]byte(cat)); len(got) != 1 || got[0].Name != "com.example/w" {
		t.Errorf("CatalogCards = %+v, want the one inline card", got)
	}
}

func TestDocumentKind(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ url, ct, want string }{
		{"https://w.example/mcp/server-card", "application/json", "card"},
		{"https://w.example/cards/weather.json", "application/mcp-server-card+json; charset=utf-8", "card"},
		{"https://w.example/.well-known/ai-catalog.json", "", "catalog"},
		{"https://w.example/.well-known/oauth-protected-resource", "application/json", ""},
		{"/mcp/server-card", "", "card"},
	} {
		if got := DocumentKind(tc.url, tc.ct); got != tc.want {
			t.Errorf("DocumentKind(%q, %q) = %q, want %q", tc.url, tc.ct, got, tc.want)
		}
	}
}

// FuzzServerCard holds the card and catalog readers to their contract on
// any body: no panic, and a catalog's inline cards read as cards do.
func FuzzServerCard(f *testing.F) {
	f.Add([]byte(`{"name":"a/b","version":"1","remotes":[{"type":"streamable-http","supportedProtocolVersions":["2026-07-28"]}]}`))
	f.Add([]byte(`{"entries":[{"type":"application/mcp-server-card+json","data":{"name":"a/b","version":"2"}}]}`))
	f.Add([]byte(`{"remotes":{"x":1},"entries":"no"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if c, ok := ParseServerCard(b); ok {
			for _, v := range c.ProtocolVersions() {
				_ = v
			}
		}
		for _, c := range CatalogCards(b) {
			if len(c.Remotes) > len(b) {
				t.Fatalf("%d remotes out of %d bytes", len(c.Remotes), len(b))
			}
		}
	})
}
