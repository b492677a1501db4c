// Package events turns what the store correlates into MCPcat-style
// analytics events: one mcp:<method> event per completed client operation
// (an MRTR operation is one event, all rounds included), and
// mcp:elicitation/create and mcp:elicitation/response for each question in
// the elicitation ledger, in either era.
//
// It sits above the store and below the sinks (file, HTTP, OTLP) and the
// CLI. Events are built from the store's change feed (store.Change) and
// the records it hands out, never by correlating again: a Feed ingests
// records into a store whose OnChange builds each event as it is due. The
// live Pipeline and `export -T events|otlp` both read through a Feed, so a
// live stream and an export of the same capture hold the same events, byte
// for byte. The store itself keeps nothing for analytics.
//
// Privacy: unless the Feed was asked for content (the --events-content
// flag), parameters and responses carry shapes (member names and value
// types) and elicitation answers carry their field names only.
// docs/events.md lists every field that can leave the machine.
//
// Everything here is safe for concurrent use except a Feed, which one
// goroutine feeds, and a Queue's consumer side, which one goroutine
// drains.
package events
