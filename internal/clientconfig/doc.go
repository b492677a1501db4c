// Package clientconfig edits MCP clients' configuration files to put
// mcptrail in front of their servers (wrap) and to take it out again
// (unwrap). It knows where each client keeps its file on macOS, Linux and
// Windows, and the file formats: JSON with comments (JSONC) and TOML.
//
// It sits beside the data flow, not in it: it knows nothing of MCP
// traffic or captures, and the CLI is its only user. Edits are splices of
// byte ranges located by small tolerant scanners (jsonc.go, toml.go); a
// document is never re-marshalled, so comments, key order and layout
// stay as they were, and unwrap gives back the original bytes. The marker
// that tells unwrap what to restore is the wrapped entry itself: the
// server's original command is the argument after "--".
//
// Everything here is a pure function of its inputs, safe for concurrent
// use, but the file I/O: reading a file and the backup (file.go), and
// replacing it without losing a write its client makes meanwhile
// (replace.go). A File is used by one goroutine at a time.
package clientconfig
