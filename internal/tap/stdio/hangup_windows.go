package stdio

import "io"

// watchHangup reports a client that went away without a write; Windows
// has no portable way to ask that of a pipe, so it waits for done and
// reports false. A failed write to the client still ends the session.
func watchHangup(_ io.Writer, done <-chan struct{}) bool {
	<-done
	return false
}
