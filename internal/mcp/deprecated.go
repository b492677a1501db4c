package mcp

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// The deprecated features of 2026-07-28 that show on the wire, as the
// registry lists them (modelcontextprotocol/modelcontextprotocol,
// docs/specification/2026-07-28/deprecated.mdx; SEP-2577, SEP-2596,
// PR #2858). Legacy titled enums are not in the registry: the schema
// (schema/2026-07-28/schema.ts, LegacyTitledEnumSchema) says only "will
// be removed in a future version".
const (
	DeprecatedRoots          = "roots"
	DeprecatedSampling       = "sampling"
	DeprecatedLogging        = "logging"
	DeprecatedIncludeContext = "includeContext"
	DeprecatedTitledEnum     = "legacy titled enum"
	DeprecatedDCR            = "dynamic client registration"
)

// Logging names of 2026-07-28 (spec 1.7): the per-request log level and the
// notification it opts the request into.
const (
	MetaLogLevel     = "io.modelcontextprotocol/logLevel"
	MethodLogMessage = "notifications/message"
)

// DeprecatedUse is one deprecated feature an InputRequiredResult's
// inputRequests use.
type DeprecatedUse struct {
	// Feature is one of the Deprecated* constants.
	Feature string
	// Key is the inputRequests key of the entry that uses it.
	Key string
	// Detail is the value or member that uses it: the includeContext
	// value, the titled enum's field name; "" otherwise.
	Detail string
}

// LogLevel returns a request's _meta io.modelcontextprotocol/logLevel, as
// written (a non-string is returned as its JSON text), and whether the
// key is present.
func LogLevel(params jsontext.Value) (string, bool) {
	v := jsonraw.Member(jsonraw.Member(params, "_meta"), MetaLogLevel)
	if v == nil {
		return "", false
	}
	if s, ok := jsonraw.String(v); ok {
		return s, true
	}
	return string(v), true
}

// InputDeprecations lists the deprecated features the inputRequests of an
// InputRequiredResult use, in wire order: a sampling/createMessage
// (Sampling, and its includeContext "thisServer" or "allServers"), a
// roots/list (Roots), and an elicitation/create field written as a legacy
// titled enum (enum with enumNames).
func InputDeprecations(result jsontext.Value) []DeprecatedUse {
	var out []DeprecatedUse
	inputs := jsonraw.Member(result, "inputRequests")
	eachMember(inputs, func(key, val []byte) bool {
		method, _ := jsonraw.String(jsonraw.Member(val, "method"))
		params := jsonraw.Member(val, "params")
		k := string(key)
		switch method {
		case MethodSampling:
			out = append(out, DeprecatedUse{Feature: DeprecatedSampling, Key: k})
			if c, ok := jsonraw.String(jsonraw.Member(params, "includeContext")); ok && (c == "thisServer" || c == "allServers") {
				out = append(out, DeprecatedUse{Feature: DeprecatedIncludeContext, Key: k, Detail: c})
			}
		case MethodRootsList:
			out = append(out, DeprecatedUse{Feature: DeprecatedRoots, Key: k})
		case MethodElicit:
			for _, name := range TitledEnumFields(params) {
				out = append(out, DeprecatedUse{Feature: DeprecatedTitledEnum, Key: k, Detail: name})
			}
		}
		return true
	})
	return out
}

// TitledEnumFields returns the names of an elicitation/create's
// requestedSchema properties written as the legacy titled enum (a string
// enum with enumNames), in wire order.
func TitledEnumFields(params jsontext.Value) []string {
	var out []string
	props := jsonraw.Member(jsonraw.Member(params, "requestedSchema"), "properties")
	eachMember(props, func(name, sub []byte) bool {
		if jsonraw.Member(sub, "enumNames") != nil && jsonraw.Member(sub, "enum") != nil {
			out = append(out, string(name))
		}
		return true
	})
	return out
}
