package mcp

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// Implementation is a peer's self-description (clientInfo, serverInfo).
type Implementation struct {
	Name    string
	Version string
}

// ParseImplementation reads name and version from an Implementation
// object; missing or non-string members stay empty.
func ParseImplementation(v jsontext.Value) Implementation {
	var im Implementation
	eachMember(v, func(name, val []byte) bool {
		switch string(name) {
		case "name":
			im.Name, _ = jsonraw.String(val)
		case "version":
			im.Version, _ = jsonraw.String(val)
		}
		return true
	})
	return im
}

// Elicitation is the set of elicitation modes a client declared.
type Elicitation struct {
	Form bool
	URL  bool
}

// ElicitationModes reads the elicitation capability from a
// ClientCapabilities object (spec 3.1). `"elicitation": {}` is equivalent
// to `{"form": {}}`, i.e. form only; no elicitation member, or one that is
// not an object, declares nothing.
func ElicitationModes(caps jsontext.Value) Elicitation {
	var e Elicitation
	eachMember(caps, func(name, val []byte) bool {
		if string(name) != "elicitation" {
			return true
		}
		if !isObject(val) {
			return false
		}
		eachMember(val, func(mode, _ []byte) bool {
			switch string(mode) {
			case "form":
				e.Form = true
			case "url":
				e.URL = true
			}
			return true
		})
		if !e.Form && !e.URL {
			e.Form = true
		}
		return false
	})
	return e
}
