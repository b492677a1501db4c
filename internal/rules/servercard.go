package rules

import (
	"slices"
	"strings"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
)

// cardSpec is the source of the server card rule, by repository and path.
const cardSpec = "modelcontextprotocol/experimental-ext-server-card docs/discovery.md "

// ServerCards compares the server cards the session fetched (exchange
// records of a GET …/server-card, or an AI Catalog's inline cards) with
// what the server said about itself on the wire (store.Snapshot.Session's
// Server). It reads only snapshots and keeps no state.
type ServerCards struct{}

// Check implements store.Check; the card rule reads only snapshots.
func (ServerCards) Check(*store.Frame, func(finding.Finding)) {}

// Finish raises server-card-mismatch for each card that contradicts the
// wire: its version against serverInfo.version; its name against
// serverInfo.name when that is written as a card name is (with a "/":
// serverInfo.name is otherwise free text); its remotes'
// supportedProtocolVersions against server/discover's supportedVersions,
// else against the protocol versions the session used.
func (ServerCards) Finish(s *store.Snapshot, raise func(finding.Finding)) {
	srv := s.Session.Server
	for i := range s.Exchanges {
		x := &s.Exchanges[i]
		if x.Tunnel || x.Status < 200 || x.Status > 299 {
			continue
		}
		var cards []mcp.ServerCard
		switch mcp.DocumentKind(x.URL, header(x.RespHeaders, "Content-Type")) {
		case "card":
			if c, ok := mcp.ParseServerCard([]byte(x.RespBody)); ok {
				cards = append(cards, c)
			}
		case "catalog":
			cards = mcp.CatalogCards([]byte(x.RespBody))
		}
		for _, c := range cards {
			for _, why := range cardContradictions(&c, srv, s.Session.ProtocolVersions) {
				raiseAt(raise, x.Line, finding.New(finding.ServerCardMismatch, x.Seq, "the server card %q from %s %s", c.Name, x.URL, why))
			}
		}
	}
}

// cardContradictions says how a card contradicts the server's wire
// identity; nil when it does not (or the wire said nothing to compare).
func cardContradictions(c *mcp.ServerCard, srv store.Peer, used []string) []string {
	var out []string
	if c.Version != "" && srv.Version != "" && c.Version != srv.Version {
		out = append(out, "says version "+quote(c.Version)+"; serverInfo says "+quote(srv.Version))
	}
	if c.Name != "" && strings.Contains(srv.Name, "/") && c.Name != srv.Name {
		out = append(out, "says name "+quote(c.Name)+"; serverInfo says "+quote(srv.Name))
	}
	card := c.ProtocolVersions()
	if card == nil {
		return out
	}
	if wire := srv.SupportedVersions; wire != nil {
		if !sameSet(card, wire) {
			out = append(out, "declares protocol versions "+list(card)+"; server/discover's supportedVersions are "+list(wire))
		}
		return out
	}
	var missing []string
	for _, v := range used {
		if !slices.Contains(card, v) {
			missing = append(missing, v)
		}
	}
	if len(missing) > 0 {
		out = append(out, "declares protocol versions "+list(card)+", but the session spoke "+list(missing))
	}
	return out
}

func sameSet(a, b []string) bool {
	for _, v := range a {
		if !slices.Contains(b, v) {
			return false
		}
	}
	for _, v := range b {
		if !slices.Contains(a, v) {
			return false
		}
	}
	return true
}

func quote(s string) string { return `"` + s + `"` }

func list(v []string) string { return "[" + strings.Join(v, " ") + "]" }

// header returns a header of a kept set, whatever the case of its name.
func header(h map[string]string, name string) string {
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

// serverCardRules are the server card rules (servercard.go).
func serverCardRules() []finding.Rule {
	return []finding.Rule{
		{ID: finding.ServerCardMismatch, Category: finding.Protocol, Severity: finding.Warning,
			Summary: "a server card's name, version or protocol versions contradict what the server said on the wire",
			Help: "A server card (SEP-2127, draft) is fetched before the client connects; the serverInfo name and version and " +
				"server/discover's supportedVersions the client then sees SHOULD NOT contradict it, and clients should prefer the " +
				"runtime values. A card that misstates its versions can steer a client to a weaker configuration. The name is " +
				"compared only when serverInfo.name is written as a card name (with a \"/\"); a legacy server's versions are the " +
				"ones the session used. Cards fetched in the session are read from GET …/server-card and from the inline cards " +
				"of /.well-known/ai-catalog.json.",
			Spec: cardSpec + "§ Consistency with Runtime Behavior; § Server Card Accuracy"},
	}
}
