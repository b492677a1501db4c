package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
)

func TestTapFailureNotes(t *testing.T) {
	t.Parallel()
	snap := load(t, []step{
		noteRec(capture.Record{Note: capture.NoteStartFailed, Text: "starting srv: no such file or directory"}),
		noteRec(capture.Record{Note: capture.NoteRelayError, Text: "writing to the server's stdin: broken pipe"}),
		endRec(),
	})
	if diff := cmp.Diff([]string{"server-start-failed@1", "relay-error@2"}, findingLines(snap.Findings.Slice())); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if got, want := snap.Findings.Slice()[0].Message, "the server could not be started: starting srv: no such file or directory"; got != want {
		t.Errorf("start-failed message %q, want %q", got, want)
	}
}
