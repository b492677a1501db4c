package testbin

import (
	"bytes"
	"os"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// CheckCaptureGap reads the capture at path and checks that its frames and
// its capture-gap note add up to frames frames of n bytes, some lost, and
// that it ends with the note and the end record; it returns the note.
func CheckCaptureGap(t testing.TB, path string, frames, n int64) capture.Record {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return CheckCaptureGapBytes(t, data, frames, n)
}

// CheckCaptureGapBytes is CheckCaptureGap of a capture held in memory.
func CheckCaptureGapBytes(t testing.TB, capt []byte, frames, n int64) capture.Record {
	t.Helper()
	_, recs, dmg, err := capture.ReadAll(bytes.NewReader(capt))
	if err != nil {
		t.Fatal(err)
	}
	var recorded, recordedBytes int64
	for _, r := range recs {
		if r.Type == capture.TypeFrame {
			recorded++
			recordedBytes += int64(r.Size)
		}
	}
	if len(recs) < 2 {
		t.Fatalf("%d records after the session record, want a capture-gap note and the end at least", len(recs))
	}
	gap, end := recs[len(recs)-2], recs[len(recs)-1]
	if gap.Note != capture.NoteCaptureGap || end.Type != capture.TypeEnd {
		t.Fatalf("the capture ends with %s %s, %s; want a capture-gap note and the end", gap.Type, gap.Note, end.Type)
	}
	if gap.LostFrame == 0 || recorded+gap.LostFrame != frames || recordedBytes+gap.LostBytes != n {
		t.Errorf("recorded %d frames (%d bytes), the note says %d lost (%d bytes); %d frames (%d bytes) crossed",
			recorded, recordedBytes, gap.LostFrame, gap.LostBytes, frames, n)
	}
	if dmg.Torn || dmg.Corrupt > 1 {
		t.Errorf("damage %+v, want at most the one torn record before the note", dmg)
	}
	return gap
}
