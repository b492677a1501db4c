// Package oauth reads the authorization flow in front of a remote MCP
// server out of a session: the 401 and its WWW-Authenticate challenge,
// the protected-resource and authorization-server metadata, dynamic
// client registration, the authorization request and its callback, the
// token request and the first bearer-authenticated MCP request, grouped
// into flows by resource and authorization server (Read).
//
// It sits above the store and below the rules and the views: it reads a
// store.Snapshot's exchanges and, through a Tracker the store hands every
// frame to (as a store.Check or an OnFrame hook), the few facts of the MCP
// exchanges' envelopes a snapshot does not keep (the URL the client used,
// the Authorization scheme, the status and WWW-Authenticate of each
// answer). It never surfaces a credential: the capture is redacted
// already, and only named, non-secret fields of the bodies are read.
//
// A Tracker belongs to one store and is called from the goroutine that
// ingests; Read does not modify the Tracker or the snapshot, and an Auth
// it returns shares nothing mutable with them.
package oauth
