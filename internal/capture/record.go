package capture

import (
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// FormatVersion is the capture format version this build writes. Readers
// accept every version up to and including it.
const FormatVersion = 1

// Type is a record's type.
type Type string

// The record types.
const (
	TypeSession Type = "session" // the first record of every capture
	TypeFrame   Type = "frame"   // one message (or invalid frame) that crossed the tap
	TypeStderr  Type = "stderr"  // one line of the server's stderr
	TypeNote    Type = "note"    // something the tap itself saw
	TypeEnd     Type = "end"     // the last record of a cleanly closed capture
	// TypeExchange is an HTTP exchange that carried no MCP message: the
	// forward proxy's OAuth discovery, registration and token requests,
	// a /.well-known document fetched through the reverse proxy.
	TypeExchange Type = "exchange"
	// TypeTunnel is a CONNECT tunnel the forward proxy relayed blind.
	TypeTunnel Type = "tunnel"
)

// Dir is the direction a frame travelled.
type Dir string

// The directions.
const (
	C2S Dir = "c2s" // client to server
	S2C Dir = "s2c" // server to client
)

// Note kinds (Record.Note).
const (
	NoteServerExit   = "server-exit"   // the server exited; Exit and Signal say how
	NoteClientClosed = "client-closed" // the client closed its end (EOF on our stdin)
	NoteCaptureGap   = "capture-gap"   // records were lost; Lost* say how many
	NoteStartFailed  = "start-failed"  // the server could not be started
	NoteRelayError   = "relay-error"   // an I/O error on one side of the relay
	NoteSignal       = "signal"        // a signal reached the tap and was passed on, or the tap sent one
	NoteClientGone   = "client-gone"   // the client went away (our stdout broke); the tap stops the server
	NoteDiscarded    = "discarded"     // server output read after the client went away; LostBytes says how much
	// NoteStreamAborted (HTTP): a request or response body ended early;
	// StoppedBy StopClient when the client closed it.
	NoteStreamAborted = "stream-aborted"
)

// Who asked the server to stop (Record.StoppedBy on a server-exit note).
const (
	// StopClient: a stop signal (SIGINT, SIGTERM, SIGHUP) reached mcptrail
	// from whoever runs it, normally the client shutting down, and was
	// passed on; or a second one made mcptrail kill the server.
	StopClient = "client"
	// StopTap: mcptrail sent SIGTERM itself because the client went away.
	StopTap = "tap"
	// StopKillAfter: mcptrail killed the server because it was still
	// running --kill-after after it was asked to stop.
	StopKillAfter = "kill-after"
)

// RedactedValue is the string that replaces every value redaction removes
// (see Record.Redacted).
const RedactedValue = "[REDACTED]"

// HTTP is the envelope of a frame that crossed an HTTP transport. Zero
// fields were absent.
type HTTP struct {
	Exchange string            `json:"exchange,omitempty"`
	Method   string            `json:"method,omitempty"`
	Path     string            `json:"path,omitempty"`
	Status   int               `json:"status,omitzero"`
	Headers  map[string]string `json:"headers,omitempty"`
	// URL is the absolute URL of the request (scheme, host, path and
	// query, credentials in the query redacted) when the tap is a forward
	// proxy, which serves many origins; empty on the reverse proxy, whose
	// one target the session header names.
	URL string `json:"url,omitempty"`
	// Event is the type of the SSE event whose data the frame holds, when
	// its "event:" field named one other than "message" (the type an
	// event without the field has): the 2024-11-05 HTTP+SSE transport's
	// "endpoint". Empty on every other frame, and on captures written
	// before the field existed.
	Event string `json:"event,omitempty"`
}

// Exchange is a TypeExchange or TypeTunnel record's body. Header values
// are kept the way frame envelopes keep them (Authorization and cookies:
// presence and scheme only); bodies and URLs have their credentials
// (access_token, refresh_token, id_token, code, code_verifier,
// client_secret, assertion, registration_access_token, software_statement
// and the rest of redact.OAuthCredentials) replaced by RedactedValue
// before the record is written, in JSON and form-encoded bodies and in
// query strings. Zero fields were absent.
type Exchange struct {
	// ID is the exchange id, unique in the session (frames carry the same
	// kind of id in HTTP.Exchange).
	ID     string `json:"id,omitempty"`
	Method string `json:"method,omitempty"`
	// URL is the absolute URL requested (credentials in the query
	// redacted). For a tunnel it is "host:port".
	URL    string `json:"url,omitempty"`
	Status int    `json:"status,omitzero"`
	// DurationUS is the time from the request's first byte to the
	// response's last (a tunnel: from CONNECT to close), in microseconds.
	// The record's Time is when the request arrived.
	DurationUS  int64             `json:"duration_us,omitzero"`
	ReqHeaders  map[string]string `json:"req_headers,omitempty"`
	RespHeaders map[string]string `json:"resp_headers,omitempty"`
	// ReqBody and RespBody hold the bodies as text (redacted), up to
	// MaxExchangeBody bytes each; ReqSize and RespSize are the sizes as
	// received, and *Cut is set when the text was cut short.
	ReqBody  string `json:"req_body,omitempty"`
	RespBody string `json:"resp_body,omitempty"`
	ReqSize  int64  `json:"req_size,omitzero"`
	RespSize int64  `json:"resp_size,omitzero"`
	ReqCut   bool   `json:"req_cut,omitzero"`
	RespCut  bool   `json:"resp_cut,omitzero"`
	// Intercepted is set when the exchange came through a CONNECT tunnel
	// whose TLS mcptrail terminated (--intercept).
	Intercepted bool `json:"intercepted,omitzero"`
	// Refused says why the tap answered the request itself instead of
	// forwarding it ("origin not allowed"); Status is then what it sent.
	Refused string `json:"refused,omitempty"`
	// Error is the transport error that ended the exchange, if any.
	Error string `json:"error,omitempty"`
	// BytesUp and BytesDown count a tunnel's bytes client→server and
	// server→client.
	BytesUp   int64 `json:"bytes_up,omitzero"`
	BytesDown int64 `json:"bytes_down,omitzero"`
}

// MaxExchangeBody is how much of an exchange body a TypeExchange record
// keeps (discovery documents, registration and token exchanges are small).
const MaxExchangeBody = 256 << 10

// Record is one line of a capture. Which fields are set depends on Type;
// the zero value of every field means "absent".
type Record struct {
	Type Type      `json:"type"`
	Seq  uint64    `json:"seq,omitzero"`
	Time time.Time `json:"time"`

	// Session header fields.
	Format      int      `json:"format,omitzero"`
	SessionID   string   `json:"session_id,omitempty"`
	Transport   string   `json:"transport,omitempty"`
	Label       string   `json:"label,omitempty"`
	Command     []string `json:"command,omitempty"`
	Target      string   `json:"target,omitempty"`
	ToolVersion string   `json:"tool_version,omitempty"`
	// PID is the process id of the mcptrail that wrote the session, so a
	// second writer refused by the file's lock can name the holder.
	PID int `json:"pid,omitzero"`

	// Frame fields.
	Dir  Dir    `json:"dir,omitempty"`
	Conn string `json:"conn,omitempty"`
	Size int    `json:"size,omitzero"`
	// Msg is the frame exactly as received when it is valid UTF-8 JSON
	// (surrounding whitespace trimmed, and compacted if it spans lines);
	// otherwise Text or B64 hold it.
	Msg jsontext.Value `json:"msg,omitzero"`
	// Raw is the whole line, without its newline, when it differs from Msg
	// (surrounding whitespace, a CR, or newlines inside the JSON), so the
	// capture stays lossless.
	Raw string `json:"raw,omitempty"`
	// Text holds a frame that is not JSON, a stderr line or a note's text.
	Text string `json:"text,omitempty"`
	// B64 holds bytes that are not valid UTF-8 (base64 in the file).
	B64 []byte `json:"b64,omitempty"`
	// NoEOL is set on the last frame of a stream that ended without a newline.
	NoEOL bool  `json:"noeol,omitzero"`
	HTTP  *HTTP `json:"http,omitempty"`

	// Exchange is set on TypeExchange and TypeTunnel records.
	Exchange *Exchange `json:"exchange,omitempty"`

	// Note fields.
	Note      string `json:"note,omitempty"`
	Exit      *int   `json:"exit,omitempty"`
	Signal    string `json:"signal,omitempty"`
	LostFrame int64  `json:"lost_frames,omitzero"`
	LostBytes int64  `json:"lost_bytes,omitzero"`
	// LostOther, on a capture-gap note, counts the lost records that are
	// not frames (stderr lines, notes, exchange records); LostFirstSeq and
	// LostLastSeq are the smallest and largest seq among the lost records
	// that carry one. Zero means none (and, in captures written before
	// they existed, unknown).
	LostOther    int64  `json:"lost_other,omitzero"`
	LostFirstSeq uint64 `json:"lost_first_seq,omitzero"`
	LostLastSeq  uint64 `json:"lost_last_seq,omitzero"`
	// StoppedBy, on a server-exit note, says who asked the server to stop
	// when the server ended on that request (it exited, with any status,
	// after it was asked, or died of the signal it was sent): StopClient,
	// StopTap or StopKillAfter. Empty means nobody asked it to stop (it
	// exited on its own), or it died of another signal (it crashed).
	//
	// On a stream-aborted note (HTTP), StopClient says the client closed
	// the response stream while mcptrail was running: in 2026-07-28 that
	// cancels the request.
	StoppedBy string `json:"stopped_by,omitempty"`
	// EOFAgeUS, on a server-exit note with StoppedBy, is how long the
	// server's stdin had been closed (the client closed mcptrail's) when it
	// was first asked to stop, in microseconds. Zero means its stdin was
	// still open.
	EOFAgeUS int64 `json:"eof_age_us,omitzero"`

	// Redacted is set on a record whose values redaction replaced with the
	// placeholder "[REDACTED]" (internal/redact), and on the session
	// header of a capture written with redaction on. Size stays the size
	// of the frame as received.
	Redacted bool `json:"redacted,omitzero"`

	// Line and Offset say where a Reader found the record: its 1-based
	// line number and the byte offset of the line's start in the file
	// (for a session opened with OpenSession, in the whole file). They are
	// not part of the format: a Writer ignores them, and a record built in
	// memory has zero for both.
	Line   int   `json:"-"`
	Offset int64 `json:"-"`
}

// Bytes returns a frame's or stderr line's bytes as received, without the
// newline.
func (r *Record) Bytes() []byte {
	switch {
	case r.Raw != "":
		return []byte(r.Raw)
	case len(r.Msg) > 0:
		return r.Msg
	case r.B64 != nil:
		return r.B64
	}
	return []byte(r.Text)
}
