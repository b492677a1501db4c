package ui

// Messages screens send (as tea.Cmd results) to ask the app to navigate.
// A screen never switches screens itself: it returns one of these and the
// app, which owns every screen, acts on it.

// DataMsg carries a session's newer Data from the source to the app, which
// hands it to every session screen.
type DataMsg struct {
	Data Data
}

// JumpMsg asks for the stream with call Call selected (a ledger row's root
// call, a finding's call). Seq, when not zero, names a frame instead: the
// stream selects the call or line holding it.
type JumpMsg struct {
	Call int
	Seq  uint64
}

// InspectMsg asks for the inspector on call Call (the request, the
// response, and for an MRTR operation each round).
type InspectMsg struct {
	Call int
}

// OpenSessionMsg asks the app to open the session ID in the capture at
// Path (from the hub).
type OpenSessionMsg struct {
	Path string
	ID   string
}

// BackMsg asks the app to close the top screen (overlay, inspector) and
// show the one beneath.
type BackMsg struct{}

// StatusMsg shows Text on the status line for a few seconds (copied,
// exported, an error that does not stop the TUI).
type StatusMsg struct {
	Text string
	// Err marks the text as an error.
	Err bool
}
