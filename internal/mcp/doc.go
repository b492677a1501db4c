// Package mcp holds protocol knowledge the store needs to read MCP traffic:
// the eras and their versions, the reserved `_meta` keys, result types, the
// multi round-trip (MRTR) shapes of 2026-07-28, capabilities and the few
// members of params and results that correlation looks at.
//
// It sits between wire (which classifies JSON-RPC frames) and store (which
// correlates them): it reads raw params and results that wire.Decode already
// validated, never correlates and keeps no state. Every function is pure and
// safe for concurrent use; parsed values never alias their input unless the
// field's doc says so.
package mcp
