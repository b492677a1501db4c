// Package events turns what the store correlates into MCPcat-style
// analytics events: one mcp:<method> event per completed client operation
// (an MRTR operation is one event, all rounds included), and
// mcp:elicitation/create and mcp:elicitation/response for each question in
// the elicitation ledger, in either era.
//
// It sits above the store and below the sinks (file, HTTP, OTLP) and the
// CLI. Events are derived from store.Change values, never from frames:
// live, the store calls EventOptions.OnChange as it ingests; offline,
// FromSnapshot walks Snapshot.Events. Both use FromChange, so a live
// stream and an export of the same capture hold the same events.
//
// Privacy: unless the store was asked for content (store.EventOptions
// Content, the --events-content flag), parameters and responses carry
// shapes (member names and value types) and elicitation answers carry
// their field names only. docs/events.md lists every field that can leave
// the machine.
//
// Everything here is safe for concurrent use except a Queue's consumer
// side, which one goroutine drains.
package events
