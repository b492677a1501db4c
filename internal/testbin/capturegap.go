package testbin

import (
	"bytes"
	"os"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// CheckCaptureGap reads the capture at path and checks that its frames and
// its capture-gap note add up to frames frames of n bytes, some lost, that
// the note's seq range is exactly the seqs the file lacks, and that it
// ends with the note and the end record; it returns the note.
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
	var seqs []uint64
	for _, r := range recs {
		if r.Type == capture.TypeFrame {
			recorded++
			recordedBytes += int64(r.Size)
		}
		if r.Seq != 0 {
			seqs = append(seqs, r.Seq)
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
	checkGapSeqs(t, seqs, gap)
	if dmg.Torn || dmg.Corrupt > 1 {
		t.Errorf("damage %+v, want at most the one torn record before the note", dmg)
	}
	return gap
}

// checkGapSeqs checks that the recorded seqs and the gap note's
// [LostFirstSeq, LostLastSeq] share nothing and together are every seq
// from 1 to the last: what the file lacks is exactly the range the note
// names.
func checkGapSeqs(t testing.TB, seqs []uint64, gap capture.Record) {
	t.Helper()
	first, last := gap.LostFirstSeq, gap.LostLastSeq
	if first == 0 || last < first {
		t.Errorf("the capture-gap note names lost seqs %d to %d, want a range", first, last)
		return
	}
	want := uint64(1)
	for _, s := range seqs {
		if s == first {
			t.Errorf("seq %d is in the file and first in the note's lost range", s)
		}
		if s != want {
			if want != first || s != last+1 {
				t.Errorf("the file has seq %d after %d; the note says %d to %d were lost", s, want-1, first, last)
				return
			}
		}
		want = s + 1
	}
	if want <= last && want != first {
		t.Errorf("the file ends at seq %d; the note says %d to %d were lost", want-1, first, last)
	}
}
