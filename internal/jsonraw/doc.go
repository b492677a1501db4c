// Package jsonraw reads raw JSON values without decoding them into Go
// values: it walks the members of an object and the elements of an array,
// finds a member by name and unquotes a string literal, allocating only
// when a string holds escapes. It is the one place for these helpers; the
// wire decoder, the protocol parsers in internal/mcp, the store, the
// capture reader and redaction all use it.
//
// The walkers and Unquote trust their input to be valid JSON (a caller
// validates a frame once, with jsontext, before picking members out of
// it): on malformed input they stop and report false, and never panic.
// UnquoteStrict trusts nothing: it accepts exactly the literals jsontext
// accepts, for bytes nobody validated.
//
// jsonraw is a leaf: it imports no other package of this module, so any of
// them may use it.
package jsonraw
