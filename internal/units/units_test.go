package units

import (
	"math"
	"testing"
	"time"
)

func TestMillis(t *testing.T) {
	for _, tc := range []struct {
		ms   float64
		want string
	}{
		{0, "0ms"},
		{0.42, "0.42ms"},
		{0.999, "1.00ms"},
		{1, "1.0ms"},
		{4.6, "4.6ms"},
		{358.04, "358.0ms"},
		{999.94, "999.9ms"},
		{999.96, "1.00s"},
		{2486, "2.49s"},
		{10027.5, "10.03s"},
		{59_994, "59.99s"},
		{59_996, "1m00s"},
		{62_400, "1m02s"},
		{3_599_600, "1h00m"},
		{3_720_000, "1h02m"},
		{-12.5, "-12.5ms"},
		{math.NaN(), "-"},
		{math.Inf(1), "-"},
	} {
		if got := Millis(tc.ms); got != tc.want {
			t.Errorf("Millis(%v) = %q, want %q", tc.ms, got, tc.want)
		}
	}
	if got := Duration(680584121 * time.Nanosecond); got != "680.6ms" {
		t.Errorf("Duration(680.584121ms) = %q, want 680.6ms", got)
	}
}

func TestOffset(t *testing.T) {
	if got := Offset(2486 * time.Millisecond); got != "+2.49s" {
		t.Errorf("Offset = %q", got)
	}
	if got := Offset(-time.Second); got != "-" {
		t.Errorf("Offset(negative) = %q", got)
	}
}

func TestAgeAndTime(t *testing.T) {
	now := time.Date(2026, 12, 2, 8, 6, 9, 0, time.UTC)
	for _, tc := range []struct {
		ago  time.Duration
		want string
	}{
		{-time.Minute, "just now"},
		{0, "just now"},
		{12 * time.Second, "12s ago"},
		{5*time.Minute + 30*time.Second, "5m ago"},
		{3 * time.Hour, "3h ago"},
		{49 * time.Hour, "2d ago"},
		{30 * 24 * time.Hour, "2026-11-02"},
	} {
		if got := Age(now.Add(-tc.ago), now); got != tc.want {
			t.Errorf("Age(now-%v) = %q, want %q", tc.ago, got, tc.want)
		}
	}
	if got := Age(time.Time{}, now); got != "-" {
		t.Errorf("Age(zero) = %q", got)
	}
	local := now.In(time.FixedZone("X", 3600))
	if got := Time(local); got != "2026-12-02 08:06:09Z" {
		t.Errorf("Time = %q", got)
	}
}
