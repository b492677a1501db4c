package index

import (
	"testing"
	"time"
)

func TestParseAge(t *testing.T) {
	const day = 24 * time.Hour
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"7d", 7 * day, true},
		{"30d", 30 * day, true},
		{"2w", 14 * day, true},
		{"12h", 12 * time.Hour, true},
		{"90m", 90 * time.Minute, true},
		{"1d12h", 36 * time.Hour, true},
		{"1.5d", 36 * time.Hour, true},
		{"0d", 0, true},
		{"", 0, false},
		{"7", 0, false},
		{"d", 0, false},
		{"-7d", 0, false},
		{"7y", 0, false},
		{"1..5d", 0, false},
		{"99999999999999d", 0, false},
	} {
		got, err := ParseAge(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseAge(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"7d":                   now.Add(-7 * 24 * time.Hour),
		"2026-11-01":           time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
		"2026-11-01T10:00:00Z": time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC),
	} {
		got, err := ParseSince(in, now)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseSince(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseSince("last tuesday", now); err == nil {
		t.Error("ParseSince accepted a sentence")
	}
}

// FuzzParseAge checks that an accepted age is never negative and that
// d and w are 24h and 7d.
func FuzzParseAge(f *testing.F) {
	for _, s := range []string{"7d", "30d", "2w", "1d12h", "1.5d", "90m", "-1d", "", "1e9d", "9223372036854775807ns"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseAge(s)
		if err != nil {
			return
		}
		if d < 0 {
			t.Fatalf("ParseAge(%q) = %v, negative", s, d)
		}
		if w, err := ParseAge(s + "0w"); err == nil && w != d {
			t.Fatalf("ParseAge(%q) = %v but %q gives %v", s, d, s+"0w", w)
		}
	})
}
