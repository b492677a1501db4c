// Package corpus holds the transcript conformance corpus test: every
// transcript in testdata/transcripts is played through the real mcptrail
// binary (a scripted client in the test, the scripted server behind the
// tap), the capture is checked byte for byte against the transcript, and
// its JSON and text exports are compared with golden files. It has no
// non-test code.
package corpus
