package jsonexport

import (
	"slices"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/oauth"
	"github.com/mcptrail/mcptrail/internal/store"
)

// readAuth returns a copy of the session's authorization flows a for the
// "auth" member (appendAuth changes its times), or nil when the session
// has no exchange record (a capture of the stdio tap or of the reverse
// proxy before it recorded exchanges), which leaves the member out. A
// nil a is a session without a flow.
func readAuth(s *store.Snapshot, a *oauth.Auth) *oauth.Auth {
	if len(s.Exchanges) == 0 {
		return nil
	}
	var c oauth.Auth
	if a != nil {
		c = *a
	}
	c.Flows = slices.Clone(c.Flows)
	for i := range c.Flows {
		c.Flows[i].Steps = slices.Clone(c.Flows[i].Steps)
	}
	c.Proofs = slices.Clone(c.Proofs)
	if c.Flows == nil {
		c.Flows = []oauth.Flow{}
	}
	return &c
}

// appendAuth adds the "auth" member (docs/export-json.md) when a is not
// nil: the oauth.Auth value, times in UTC.
func appendAuth(b []byte, a *oauth.Auth) []byte {
	if a == nil {
		return b
	}
	for i := range a.Flows {
		for j := range a.Flows[i].Steps {
			st := &a.Flows[i].Steps[j]
			st.Time = st.Time.UTC()
		}
	}
	for i := range a.Proofs {
		a.Proofs[i].Time = a.Proofs[i].Time.UTC()
	}
	// Query and body values may decode to invalid UTF-8: U+FFFD stands in.
	enc, err := json.Marshal(a, jsontext.AllowInvalidUTF8(true))
	if err != nil {
		// oauth.Auth holds strings, numbers and times only: it encodes.
		enc = []byte(`{"flows":[]}`)
	}
	b = append(b, ",\n\"auth\":"...)
	return append(b, enc...)
}
