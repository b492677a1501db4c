package store

// methodListen is the 2026-07-28 subscriptions/listen request: a stream
// the client holds open for notifications. It has no answer while it
// lives; the client ends it by closing the stream (HTTP) or with
// notifications/cancelled (stdio), after which the server SHOULD send a
// final success response (spec: subscriptions, "How a subscription ends").
// So neither an answer after the client's cancel (late-result) nor no
// answer at all (unanswered-request) is a problem for it.
const methodListen = "subscriptions/listen"
