package filter

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
)

// slowWant is the message for a malformed slow: value.
const slowWant = "want >DUR, >=DUR, <DUR or <=DUR, DUR a Go duration or milliseconds"

// parseSlow parses slow's value: a comparison and a duration, plain numbers
// being milliseconds.
func parseSlow(v string) (string, time.Duration, error) {
	var op string
	for _, o := range []string{">=", "<=", ">", "<"} {
		if rest, ok := strings.CutPrefix(v, o); ok {
			op, v = o, rest
			break
		}
	}
	if op == "" || v == "" {
		return "", 0, errors.New(slowWant)
	}
	if ms, err := strconv.ParseFloat(v, 64); err == nil && isPlain(v) {
		if ms < 0 || ms*1e6 >= math.MaxInt64 || math.IsNaN(ms) {
			return "", 0, errors.New("duration out of range")
		}
		return op, time.Duration(ms * float64(time.Millisecond)), nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return "", 0, errors.New(slowWant)
	}
	if d < 0 {
		return "", 0, errors.New("negative duration")
	}
	return op, d, nil
}

// isPlain reports whether v is digits with at most one decimal point, so
// that ParseFloat's other forms (exponents, hex, "inf") are not taken.
func isPlain(v string) bool {
	dot := false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '.' && !dot:
			dot = true
		case c < '0' || c > '9':
			return false
		}
	}
	return v != "."
}

// durationString prints d so that parseSlow reads it back.
func durationString(d int64) string {
	return time.Duration(d).String()
}

// holds reports whether d compares to bound as op says.
func holds(op string, d, bound time.Duration) bool {
	switch op {
	case ">":
		return d > bound
	case ">=":
		return d >= bound
	case "<":
		return d < bound
	}
	return d <= bound
}
