package mcp

import (
	"net/url"
	"strings"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// Server cards (SEP-2127, draft; modelcontextprotocol/experimental-ext-server-card,
// docs/discovery.md and schema.ts): a static description of a server a
// client fetches before it connects, at <streamable-http-url>/server-card
// (the reserved default) or wherever an AI Catalog at
// /.well-known/ai-catalog.json points.
const (
	ServerCardPath     = "/server-card"
	AICatalogPath      = "/.well-known/ai-catalog.json"
	MediaTypeCard      = "application/mcp-server-card+json"
	MediaTypeAICatalog = "application/ai-catalog+json"
)

// ServerCard is what a card says that the wire can contradict: its name,
// version and the protocol versions its remotes declare.
type ServerCard struct {
	Name    string
	Version string
	// Remotes lists the card's remotes[] in order.
	Remotes []CardRemote
}

// CardRemote is one of a card's remotes.
type CardRemote struct {
	Type string
	URL  string
	// SupportedProtocolVersions is nil when the remote declares none.
	SupportedProtocolVersions []string
}

// ProtocolVersions returns the protocol versions any remote declares, in
// order of first mention; nil when none declares any.
func (c *ServerCard) ProtocolVersions() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range c.Remotes {
		for _, v := range r.SupportedProtocolVersions {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	return out
}

// DocumentKind says whether an exchange fetched a server card ("card"),
// an AI Catalog ("catalog") or neither (""), by its URL's path or the
// answer's Content-Type.
func DocumentKind(rawURL, contentType string) string {
	mt, _, _ := strings.Cut(contentType, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	path := rawURL
	if u, err := url.Parse(rawURL); err == nil {
		path = u.Path
	}
	switch {
	case mt == MediaTypeCard || strings.HasSuffix(path, ServerCardPath):
		return "card"
	case mt == MediaTypeAICatalog || path == AICatalogPath:
		return "catalog"
	}
	return ""
}

// ParseServerCard reads a server card; ok is false when body is not a
// JSON object.
func ParseServerCard(body []byte) (c ServerCard, ok bool) {
	if !isObject(body) || !jsonraw.EachMember(body, func(_, _ []byte) bool { return true }) {
		return c, false
	}
	c.Name, _ = jsonraw.String(jsonraw.Member(body, "name"))
	c.Version, _ = jsonraw.String(jsonraw.Member(body, "version"))
	jsonraw.EachElement(jsonraw.Member(body, "remotes"), func(v []byte) {
		r := CardRemote{}
		r.Type, _ = jsonraw.String(jsonraw.Member(v, "type"))
		r.URL, _ = jsonraw.String(jsonraw.Member(v, "url"))
		jsonraw.EachElement(jsonraw.Member(v, "supportedProtocolVersions"), func(s []byte) {
			if str, ok := jsonraw.String(s); ok {
				r.SupportedProtocolVersions = append(r.SupportedProtocolVersions, str)
			}
		})
		c.Remotes = append(c.Remotes, r)
	})
	return c, true
}

// CatalogCards returns the server cards an AI Catalog carries inline
// (entries of type MediaTypeCard with data); entries that point elsewhere
// (url) are fetched, and read, on their own.
func CatalogCards(body []byte) []ServerCard {
	var out []ServerCard
	jsonraw.EachElement(jsonraw.Member(body, "entries"), func(e []byte) {
		typ, _ := jsonraw.String(jsonraw.Member(e, "type"))
		if typ != MediaTypeCard {
			return
		}
		if c, ok := ParseServerCard(jsonraw.Member(e, "data")); ok {
			out = append(out, c)
		}
	})
	return out
}
