package index

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseAge reads an age such as 30d, 2w, 12h, 90m or 1d12h: Go duration
// units (ns us µs ms s m h) plus d (24h) and w (7d). It refuses a negative
// or overflowing age.
func ParseAge(s string) (time.Duration, error) {
	if s == "" {
		return 0, fmt.Errorf("empty age (want a number and a unit, as in 7d or 12h)")
	}
	var total time.Duration
	rest := s
	for rest != "" {
		i := strings.IndexFunc(rest, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
		if i <= 0 {
			return 0, fmt.Errorf("invalid age %q (want a number and a unit, as in 7d or 12h)", s)
		}
		j := i + strings.IndexFunc(rest[i:], func(r rune) bool { return (r >= '0' && r <= '9') || r == '.' })
		if j < i {
			j = len(rest)
		}
		num, unit := rest[:i], rest[i:j]
		rest = rest[j:]
		d, err := segment(num, unit)
		if err != nil {
			return 0, fmt.Errorf("invalid age %q: %w", s, err)
		}
		if total > time.Duration(1<<63-1)-d {
			return 0, fmt.Errorf("invalid age %q: too long", s)
		}
		total += d
	}
	return total, nil
}

// segment is one number and unit of an age.
func segment(num, unit string) (time.Duration, error) {
	var per time.Duration
	switch unit {
	case "d":
		per = 24 * time.Hour
	case "w":
		per = 7 * 24 * time.Hour
	default:
		d, err := time.ParseDuration(num + unit)
		if err != nil {
			return 0, fmt.Errorf("unknown unit %q", unit)
		}
		return d, nil
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("bad number %q", num)
	}
	d := f * float64(per)
	if d >= 1<<63 {
		return 0, fmt.Errorf("too long")
	}
	return time.Duration(d), nil
}

// ParseSince reads a --since value: an age (7d: since now minus it), a
// date (2026-11-01, UTC midnight) or an RFC 3339 time.
func ParseSince(s string, now time.Time) (time.Time, error) {
	if d, err := ParseAge(s); err == nil {
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("invalid time %q (want an age such as 7d or 12h, a date such as 2026-11-01, or an RFC 3339 time)", s)
}
