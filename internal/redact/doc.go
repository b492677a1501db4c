// Package redact scrubs capture records: it replaces the values that key,
// preset, JSONPath, value-regex and elicitation-answer rules select with
// the placeholder "[REDACTED]". It sits between the tap and the capture
// file (redaction on write: the tap hands each line to a Redactor before
// it is written, never the bytes it forwards) and between the capture
// reader and the store (redaction on read: commands redact records in
// memory and leave the file as it is). It also holds the one list of
// credential names (SecretKeys, OAuthCredentials) and the redaction the
// HTTP tap applies to OAuth exchange records whatever the rules
// (CredentialBody, CredentialURL).
//
// # Rules
//
//   - Keys: an object member whose name is a key, at any depth, has its
//     whole value replaced. A name is a key when, lower-cased with - read
//     as _, it equals one or its last word does, words being separated by
//     _ and - (not camelCase humps: progressToken is the protocol's): the
//     key token takes GITHUB_TOKEN and access-token, not max_tokens. One
//     matcher (keySet) judges member names, the names of text forms,
//     flags, variables and headers alike.
//   - Secrets: the keys of the Secrets preset (see [SecretKeys]), and any
//     name whose last word is key (OPENAI_API_KEY, aws_secret_access_key;
//     not key, monkey or keyboard).
//   - Paths: JSONPath expressions (RFC 9535 syntax as ohler55/ojg parses
//     it: $, .name, ['name'], [n], [*], .., [start:end], filters); every
//     value they select in a message is replaced. A path rule reaches
//     anywhere, schema positions included.
//   - Values: RE2 expressions; every match inside a string value (not a
//     member name), inside a stderr line, a note, a non-JSON text frame
//     and the bytes of a frame that is not UTF-8 is replaced.
//   - Answers: every value of an elicitation answer's content is replaced,
//     keeping its member names: params.inputResponses.*.content of a
//     2026-07-28 retry, and result.content of a client response to a
//     server's elicitation/create (the Redactor remembers the ids of the
//     elicitation/create requests it saw; a response carrying an action
//     member is treated as an ElicitResult too).
//
// Schema positions hold structure, not values: key and value rules skip
// result.tools[].inputSchema and outputSchema (an inputSchema or
// outputSchema member of an element of an array named tools) and an
// elicitation's requestedSchema (a requestedSchema member of an object
// named params), so a property called password keeps its declared type.
// Inside a schema, default, const, examples and enum are data: rules apply
// to them as anywhere else, and under a property a key rule selects they
// are replaced whole.
//
// The session header's command line is scrubbed with the key set
// (--api-key=X, --token X, API_KEY=X, "Authorization: X"; a name matches
// as a member name does), with the text forms inside each argument
// (forms.go: name=value, --name value, auth and cookie headers, URL query
// parameters, an sh -c string's words), URL passwords, and the value
// rules; its target the same way. A stderr line or text frame has the value of any "key": value
// pair whose key a key rule selects replaced (a torn JSON frame is text),
// and, when it does not look like JSON, the text forms too. An HTTP
// envelope header whose name, or whose Name in Mcp-Param-{Name}, is a key
// (ignoring case, - and _) has its value replaced.
//
// Redaction works on the raw bytes: untouched spans are copied verbatim,
// so keys keep their order and values their spelling, and a redacted
// capture diffs cleanly against the original. It is idempotent. A record
// it changed is marked Redacted; a session header it saw is always marked.
//
// Most frames hold no member a key rule names. With key and answer rules
// only, Names gives the capture writer a filter of the names that matter,
// which it applies in the pass that validates each frame
// (capture.Writer.WriteLineUnselected): a JSON frame none of whose names
// it selects is recorded without being tokenized, and only the others go
// through Line.
//
// A Redactor keeps per-session state (the elicitation/create ids) and is
// not safe for concurrent use: one goroutine per session, Reset between
// sessions.
package redact
