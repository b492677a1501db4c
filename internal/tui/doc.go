// Package tui is mcptrail's live terminal UI: the app that composes the
// screens (hub, stream, inspector, overlays) over the data the source
// delivers as capture files grow.
//
// The app owns every screen and the navigation between them; screens ask
// for navigation with the messages of internal/tui/ui. Under everything
// is the base, the hub or the open session's stream; over it the app
// keeps a stack of screens (stack.go: the inspector, the overlays, the
// help, the export prompt). Keys and the mouse go to the top of the stack,
// esc pops it, and every screen on it is given each newer Data. The
// overlays are registered in internal/tui/overlay (Specs), so a new one
// needs no edit here. Run draws on the Streams of Options, so the program
// runs on any reader and writer, a test's pipes included. Update does no I/O:
// the source's channels are read, and frames and exports are written, by
// commands. Everything a screen shows comes from a ui.Data, so the TUI
// shows exactly what the capture holds, redacted as export redacts it.
package tui
