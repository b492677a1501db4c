package ui

import (
	"time"

	"github.com/mcptrail/mcptrail/internal/store"
)

// SessionInfo is one row of the hub: a session found in the state
// directory, summed up.
type SessionInfo struct {
	Path string // the capture file
	ID   string // the session id (a file may hold several sessions)

	Label     string
	Transport string // stdio or http
	Client    store.Peer
	Server    store.Peer

	Calls        int
	Errors       int // calls whose status is error, tool-error or http-error
	Elicitations int // ledger rows
	Pending      int // ledger rows still pending
	Findings     int

	Start        time.Time
	LastActivity time.Time // the time of the last record
	// Live is set while the capture is still growing (no end record and
	// written to recently).
	Live bool
	// Activity counts the frames in equal slices of the session's time,
	// oldest first, for a sparkline (at most ActivityBuckets).
	Activity []int
	// Loading is set while the session's backlog is still being read:
	// the counts are provisional (see Data.Loading).
	Loading bool
	// Err is set when the capture could not be read; the other fields
	// may be partial.
	Err string
}

// ActivityBuckets is the length of SessionInfo.Activity.
const ActivityBuckets = 16

// HubMsg carries the hub's newer list of sessions, newest first.
type HubMsg struct {
	Sessions []SessionInfo
}
