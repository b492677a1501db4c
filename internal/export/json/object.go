package jsonexport

import (
	"math"
	"strconv"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/wire"
)

// object appends the members of one JSON object to b by hand: the export
// writes hundreds of thousands of small objects, so it avoids reflection.
// Keys are constant snake_case ASCII and need no escaping.
type object struct {
	b []byte
	n int
}

func openObject(b []byte) object { return object{b: append(b, '{')} }

// close ends the object and returns the buffer.
func (o *object) close() []byte { return append(o.b, '}') }

func (o *object) key(k string) {
	if o.n > 0 {
		o.b = append(o.b, ',')
	}
	o.n++
	o.b = append(o.b, '"')
	o.b = append(o.b, k...)
	o.b = append(o.b, '"', ':')
}

func (o *object) str(k, v string) {
	o.key(k)
	o.b = appendString(o.b, v)
}

// strOpt writes k only when v is not empty.
func (o *object) strOpt(k, v string) {
	if v != "" {
		o.str(k, v)
	}
}

func (o *object) int(k string, v int64) {
	o.key(k)
	o.b = strconv.AppendInt(o.b, v, 10)
}

func (o *object) uint(k string, v uint64) {
	o.key(k)
	o.b = strconv.AppendUint(o.b, v, 10)
}

// uintOpt writes k only when v is not zero.
func (o *object) uintOpt(k string, v uint64) {
	if v != 0 {
		o.uint(k, v)
	}
}

func (o *object) bool(k string, v bool) {
	o.key(k)
	o.b = strconv.AppendBool(o.b, v)
}

func (o *object) ms(k string, v float64) {
	o.key(k)
	o.b = appendMS(o.b, v)
}

func (o *object) time(k string, t time.Time) {
	o.key(k)
	o.b = appendTime(o.b, t)
}

// timeOpt writes k only when t is not zero.
func (o *object) timeOpt(k string, t time.Time) {
	if !t.IsZero() {
		o.time(k, t)
	}
}

// id writes a JSON-RPC id as its raw token (null when absent).
func (o *object) id(k string, id wire.ID) {
	o.key(k)
	if id.IsZero() {
		o.b = append(o.b, "null"...)
		return
	}
	o.b = append(o.b, id.Raw()...)
}

func (o *object) raw(k string, v []byte) {
	o.key(k)
	o.b = append(o.b, v...)
}

func (o *object) strings(k string, vs []string) {
	o.array(k, len(vs), func(b []byte, i int) []byte { return appendString(b, vs[i]) })
}

// array writes k as a JSON array of n elements, elem appending the i-th.
func (o *object) array(k string, n int, elem func(b []byte, i int) []byte) {
	o.key(k)
	o.b = append(o.b, '[')
	for i := range n {
		if i > 0 {
			o.b = append(o.b, ',')
		}
		o.b = elem(o.b, i)
	}
	o.b = append(o.b, ']')
}

func appendString(b []byte, s string) []byte {
	// On invalid UTF-8 AppendQuote still returns the quoted string, with
	// U+FFFD in place of the bad bytes: the text is kept, not dropped.
	out, _ := jsontext.AppendQuote(b, s)
	return out
}

func appendTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

// appendMS writes milliseconds rounded to the microsecond.
func appendMS(b []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(b, '0')
	}
	return strconv.AppendFloat(b, math.Round(v*1000)/1000, 'f', -1, 64)
}
