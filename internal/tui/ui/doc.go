// Package ui holds what every screen of the live TUI shares: the data a
// session screen shows (Data), the messages screens send one another to
// navigate (messages.go), the colours (Theme) and the one way untrusted
// text reaches the terminal (Cell, Text).
//
// It sits below the screens (internal/tui/stream, inspector, overlay, hub)
// and the app that composes them (internal/tui), and above the store. It
// does no I/O.
package ui
