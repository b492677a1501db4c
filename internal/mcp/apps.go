package mcp

import (
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// MCP Apps (modelcontextprotocol/ext-apps, specification/draft/apps.mdx,
// SEP-1865): a tool names, in its _meta.ui.resourceUri, a ui:// resource
// holding the HTML the host renders; the host fetches it with
// resources/read. SEP-3118 (spec repo PR #3118, ext-apps PR #733) puts the
// same member on an elicitation/create so that an app renders the form.
const (
	// ExtensionApps is the extension's key in capabilities.extensions.
	ExtensionApps = "io.modelcontextprotocol/ui"
	// MimeTypeApp is the mimeType of a UI resource (§ UI Resource Format).
	MimeTypeApp = "text/html;profile=mcp-app"
	// SchemeUI is the scheme every UI resource uri starts with.
	SchemeUI = "ui://"
	// MetaUIFlat is the deprecated flat _meta key naming a tool's UI
	// resource, "removed before GA" (§ Resource Discovery).
	MetaUIFlat = "ui/resourceUri"
)

// ToolUI is what a tool's _meta says of its UI resource.
type ToolUI struct {
	// ResourceURI is _meta.ui.resourceUri, else the deprecated flat
	// _meta["ui/resourceUri"]; "" when the tool has no UI.
	ResourceURI string
	// Flat reports that ResourceURI came from the deprecated flat key
	// alone (no _meta.ui.resourceUri).
	Flat bool
}

// ParseToolUI reads a tool's raw _meta object. A member given twice
// counts as its last, as JSON.parse reads it; a value that is not a
// non-empty string counts as absent.
func ParseToolUI(meta jsontext.Value) ToolUI {
	var nested, flat string
	eachMember(meta, func(name, val []byte) bool {
		switch string(name) {
		case "ui":
			nested = uiResourceURI(val)
		case MetaUIFlat:
			flat, _ = jsonraw.String(val)
		}
		return true
	})
	switch {
	case nested != "":
		return ToolUI{ResourceURI: nested}
	case flat != "":
		return ToolUI{ResourceURI: flat, Flat: true}
	}
	return ToolUI{}
}

// uiResourceURI returns the resourceUri member of a _meta.ui object, last
// one wins; "" when absent or not a string.
func uiResourceURI(ui []byte) string {
	var uri string
	eachMember(ui, func(name, val []byte) bool {
		if string(name) == "resourceUri" {
			uri, _ = jsonraw.String(val)
		}
		return true
	})
	return uri
}

// ElicitAppResource returns the ui:// resource an elicitation/create's
// params._meta.ui.resourceUri names (SEP-3118: the form is rendered by that
// app); "" when there is none.
func ElicitAppResource(params jsontext.Value) string {
	var uri string
	eachMember(params, func(name, val []byte) bool {
		if string(name) == MemberMeta {
			uri = ""
			eachMember(val, func(name, val []byte) bool {
				if string(name) == "ui" {
					uri = uiResourceURI(val)
				}
				return true
			})
		}
		return true
	})
	return uri
}

// IsUIResource reports whether uri is a ui:// resource uri.
func IsUIResource(uri string) bool { return strings.HasPrefix(uri, SchemeUI) }

// IsAppMimeType reports whether a mimeType is the MCP Apps type. Media
// type names and parameter names are case-insensitive (RFC 9110 § 8.3.1);
// spaces around the parameter are tolerated.
func IsAppMimeType(mt string) bool {
	typ, param, ok := strings.Cut(mt, ";")
	if !ok || !strings.EqualFold(strings.TrimSpace(typ), "text/html") {
		return false
	}
	k, v, ok := strings.Cut(strings.TrimSpace(param), "=")
	return ok && strings.EqualFold(strings.TrimSpace(k), "profile") && strings.Trim(strings.TrimSpace(v), `"`) == "mcp-app"
}
