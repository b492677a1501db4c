package capture

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestFollowIdle: the Idle hook runs when the Follower waits at the end
// of the file, with the bytes read, and cancelling the context there (the
// writer is gone) makes the waiting Next return, the torn last line
// reported as damage.
func TestFollowIdle(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "c.jsonl")
	head := `{"type":"session","time":"2026-07-28T09:00:00Z","format":1,"session_id":"s"}` + "\n"
	frame := `{"type":"frame","seq":1,"time":"2026-07-28T09:00:00Z","dir":"c2s","msg":{"jsonrpc":"2.0","method":"x"}}` + "\n"
	torn := `{"type":"frame","seq":2,"ti`
	if err := os.WriteFile(path, []byte(head+frame+torn), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var at []int64
	fl, err := Follow(ctx, path, &FollowOptions{Poll: time.Millisecond, Idle: func(pos int64) {
		at = append(at, pos)
		cancel()
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer fl.Close()
	var rec Record
	if err := fl.Next(&rec); err != nil || rec.Seq != 1 {
		t.Fatalf("Next = seq %d, %v", rec.Seq, err)
	}
	if err := fl.Next(&rec); !errors.Is(err, context.Canceled) {
		t.Fatalf("Next after the hook cancelled = %v, want context.Canceled", err)
	}
	if want := int64(len(head + frame + torn)); len(at) != 1 || at[0] != want {
		t.Errorf("Idle called at %v, want once at %d", at, want)
	}
	if d := fl.Damage(); !d.Torn || d.TornBytes != int64(len(torn)) {
		t.Errorf("Damage = %+v, want the torn line of %d bytes", d, len(torn))
	}
}
