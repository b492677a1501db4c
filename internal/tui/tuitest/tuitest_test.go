package tuitest

import "testing"

func TestFixture(t *testing.T) {
	d := Fixture(t, "elicit-seed")
	if n := d.Snap.Calls.Len(); n != 6 {
		t.Errorf("elicit-seed: %d calls, want 6", n)
	}
	if n := d.Snap.Ledger.Len(); n == 0 {
		t.Error("elicit-seed: no ledger rows")
	}
	if !d.Snap.Session.Ended {
		t.Error("elicit-seed: session not ended")
	}
}
