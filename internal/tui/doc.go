// Package tui is mcptrail's live terminal UI: the app that composes the
// screens (hub, stream, inspector, overlays) over the data the source
// delivers as capture files grow.
//
// The app owns every screen and the navigation between them; screens ask
// for navigation with the messages of internal/tui/ui. Update does no I/O:
// the source's channels are read, and frames and exports are written, by
// commands. Everything a screen shows comes from a ui.Data, so the TUI
// shows exactly what the capture holds, redacted as export redacts it.
package tui
