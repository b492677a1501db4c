package httpsink

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestRetryable checks which statuses are retried: 5xx, 408 and 429.
func TestRetryable(t *testing.T) {
	t.Parallel()
	got := map[int]bool{}
	for _, c := range []int{200, 202, 400, 401, 404, 408, 409, 422, 429, 500, 502, 503} {
		got[c] = Retryable(c)
	}
	want := map[int]bool{200: false, 202: false, 400: false, 401: false, 404: false, 408: true, 409: false,
		422: false, 429: true, 500: true, 502: true, 503: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Retryable (-want +got):\n%s", diff)
	}
}

// TestBackoff checks the full-jitter bounds: (0, min·2^attempt], capped
// at max, even for an attempt whose doubling overflows.
func TestBackoff(t *testing.T) {
	t.Parallel()
	const lo, hi = 200 * time.Millisecond, 10 * time.Second
	for _, tt := range []struct {
		attempt int
		limit   time.Duration
	}{{0, lo}, {1, 2 * lo}, {3, 8 * lo}, {6, hi}, {40, hi}, {1000, hi}} {
		for range 200 {
			if d := Backoff(tt.attempt, lo, hi); d <= 0 || d > tt.limit {
				t.Fatalf("Backoff(%d) = %v, want in (0, %v]", tt.attempt, d, tt.limit)
			}
		}
	}
}
