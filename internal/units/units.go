// Package units is the one way mcptrail shows a duration or a time to a
// person: every table, header and summary of the CLI, the TUI and the
// text and HTML exports formats through it, so the same call reads the
// same everywhere. Machine output (JSON, CSV, SARIF, OTLP) keeps numbers
// with the unit in the field's name (duration_ms) and RFC 3339 times.
//
// The rules:
//
//   - A duration always carries its unit and the precision its size
//     deserves: 0.42ms below a millisecond, 358.0ms below a second, 2.49s
//     below a minute, 1m02s below an hour, 1h02m above.
//   - A time inside a session is an offset from the session's start
//     (+2.49s), the way the stream and the text export list frames.
//   - When something happened, in a list (sessions, the hub), is its age
//     (5m ago), or its date when older than 30 days; one record's detail
//     (a session header) gives the absolute time in UTC to the second
//     (2026-12-02 08:06:09Z).
//
// The functions are pure and safe for concurrent use.
package units

import (
	"math"
	"strconv"
	"time"
)

// Millis formats a duration given in milliseconds, as the store keeps
// them (Call.DurationMS); see Duration.
func Millis(ms float64) string {
	if math.IsNaN(ms) || math.IsInf(ms, 0) {
		return "-"
	}
	if ms < 0 {
		return "-" + Millis(-ms)
	}
	switch {
	case ms == 0:
		return "0ms"
	case ms < 1:
		return strconv.FormatFloat(ms, 'f', 2, 64) + "ms"
	case math.Round(ms*10) < 10_000:
		return strconv.FormatFloat(ms, 'f', 1, 64) + "ms"
	case math.Round(ms/10) < 6_000:
		return strconv.FormatFloat(ms/1000, 'f', 2, 64) + "s"
	}
	return long(time.Duration(ms * float64(time.Millisecond)))
}

// Duration formats d: 0.42ms, 358.0ms, 2.49s, 1m02s, 1h02m.
func Duration(d time.Duration) string {
	return Millis(float64(d) / float64(time.Millisecond))
}

// long formats a duration of a minute or more.
func long(d time.Duration) string {
	d = d.Round(time.Second)
	if d < time.Hour {
		return strconv.Itoa(int(d/time.Minute)) + "m" + two(int(d%time.Minute/time.Second)) + "s"
	}
	d = d.Round(time.Minute)
	return strconv.Itoa(int(d/time.Hour)) + "h" + two(int(d%time.Hour/time.Minute)) + "m"
}

func two(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// Offset formats the time since a session's start: +2.49s. A negative
// offset (a clock that went back) is "-".
func Offset(d time.Duration) string {
	if d < 0 {
		return "-"
	}
	return "+" + Duration(d)
}

// Age says how long before now t was, for a list: "just now", "12s ago",
// "5m ago", "3h ago", "2d ago"; from 30 days on, its date (2026-11-02,
// UTC). A t after now (another machine's clock) is "just now"; the zero
// time is "-".
func Age(t, now time.Time) string {
	if t.IsZero() {
		return "-"
	}
	d := now.Sub(t)
	switch {
	case d < time.Second:
		return "just now"
	case d < time.Minute:
		return strconv.Itoa(int(d/time.Second)) + "s ago"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m ago"
	case d < 24*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h ago"
	case d < 30*24*time.Hour:
		return strconv.Itoa(int(d/(24*time.Hour))) + "d ago"
	}
	return t.UTC().Format(time.DateOnly)
}

// Time formats an absolute time for one record's detail: UTC, to the
// second, 2026-12-02 08:06:09Z. The zero time is "-".
func Time(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04:05Z")
}
