package redact

import (
	"strings"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
)

// headers redacts an HTTP envelope's header values, copying the map when
// it changes one: a header whose name is a key (see headerKey) has its
// value replaced; the others get the value rules.
func (r *rules) headers(h *capture.HTTP) bool {
	var out map[string]string
	for name, v := range h.Headers {
		nv := v
		if r.headerKey(name) {
			nv = Placeholder
		} else {
			nv, _ = r.valueString(v)
		}
		if nv != v {
			if out == nil {
				out = make(map[string]string, len(h.Headers))
				for k, v := range h.Headers {
					out[k] = v
				}
			}
			out[name] = nv
		}
	}
	if out == nil {
		return false
	}
	h.Headers = out
	return true
}

// headerKey reports whether an HTTP header's name, or the {Name} of an
// Mcp-Param-{Name} header (which mirrors a tool argument), is a key:
// compared ignoring case, and - and _ (Mcp-Param-Api-Key names apiKey,
// api_key and api-key), or as any name is matched (X-Upstream-Token).
func (r *rules) headerKey(name string) bool {
	if r.keys.empty() {
		return false
	}
	if len(name) > len(mcp.HeaderParamPrefix) && strings.EqualFold(name[:len(mcp.HeaderParamPrefix)], mcp.HeaderParamPrefix) {
		name = name[len(mcp.HeaderParamPrefix):]
	}
	if _, ok := r.sepless[sepless(strings.ToLower(name))]; ok {
		return true
	}
	return r.keys.matchString(name)
}

// sepless is s without - and _.
func sepless(s string) string {
	return strings.NewReplacer("-", "", "_", "").Replace(s)
}
