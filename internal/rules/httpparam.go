package rules

import (
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/jsonraw"
	"github.com/mcptrail/mcptrail/internal/mcp"
)

// sentinel markers of the header value encoding (spec 5.2).
const sentinelPre, sentinelPost = "=?base64?", "?="

// maxSafeInteger bounds the integers an Mcp-Param-* header may carry.
const maxSafeInteger = 1<<53 - 1

// paramHeaders checks the Mcp-Param-* headers of a modern tools/call POST
// against the arguments the tool's latest tools/list annotated with
// x-mcp-header (rule 57), and flags a call of a tool whose annotations
// are invalid (rule 49, client side). A tool no tools/list described is
// not checked.
func (h *HTTP) paramHeaders(r *capture.Record, req *mcp.Request) {
	th, ok := h.tools[req.Target]
	if !ok {
		return
	}
	if th.invalid != "" {
		h.add(finding.New(finding.ToolHeaderAnnotation, r.Seq,
			"tools/call of %q over HTTP: the tool's x-mcp-header annotations are invalid (%s), so a client must not call it", req.Target, th.invalid))
		return
	}
	for _, b := range th.params {
		if msg := checkParam(r.HTTP.Headers, req.Arguments, b); msg != "" {
			h.add(finding.New(finding.HTTPParamHeader, r.Seq, "tools/call of %q: %s", req.Target, msg))
		}
	}
}

// checkParam checks one annotated argument against its header and returns
// what is wrong, or "".
func checkParam(h map[string]string, args jsontext.Value, b paramBinding) string {
	name := mcp.HeaderParamPrefix + b.header
	arg := strings.Join(b.path, ".")
	hv, present := headerFold(h, name)
	val, found := argument(args, b.path)
	if !found || string(val) == "null" {
		if present {
			what := "absent"
			if found {
				what = "null"
			}
			return name + " is present (" + strconv.Quote(hv) + ") but argument " + arg + " is " + what
		}
		return ""
	}
	if !present {
		return "no " + name + " header for argument " + arg + " = " + string(val)
	}
	decoded, encoded := sentinelDecode(hv)
	switch val[0] {
	case '"':
		str, _ := jsonraw.String(val)
		switch {
		case decoded != str:
			return mismatch(name, hv, arg, val)
		case !encoded && needsSentinel(str):
			return name + " carries " + strconv.Quote(str) + " unencoded; a value with non-ASCII or control characters, " +
				"edge whitespace or the sentinel's shape must be sent as =?base64?…?="
		}
	case 't', 'f':
		if decoded != string(val) {
			return mismatch(name, hv, arg, val)
		}
	case '{', '[':
		// A non-primitive argument breaks the tool's schema, not a header rule.
	default:
		body, err := strconv.ParseFloat(string(val), 64)
		if err == nil && (body > maxSafeInteger || body < -maxSafeInteger) {
			return "argument " + arg + " = " + string(val) + " is outside ±(2^53−1) and cannot travel in " + name
		}
		head, herr := strconv.ParseFloat(decoded, 64)
		if err != nil || herr != nil || !isDecimal(decoded) || head != body {
			return mismatch(name, hv, arg, val)
		}
	}
	return ""
}

// mismatch describes a header that differs from its argument.
func mismatch(name, hv, arg string, val []byte) string {
	msg := name + " " + strconv.Quote(hv) + " differs from argument " + arg + " = " + string(val)
	if strings.HasPrefix(strings.ToLower(hv), sentinelPre) && !strings.HasPrefix(hv, sentinelPre) {
		msg += " (the =?base64? markers must be lowercase)"
	}
	return msg
}

// headerFold looks a header up by name, case-insensitively (the capture
// keeps Mcp-Param-* in canonical form, the annotation may spell it
// otherwise).
func headerFold(h map[string]string, name string) (string, bool) {
	if v, ok := h[name]; ok {
		return v, true
	}
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return "", false
}

// argument returns the value at path inside the arguments object.
func argument(args []byte, path []string) ([]byte, bool) {
	cur := args
	for _, p := range path {
		var next []byte
		jsonraw.EachMember(cur, func(k, v []byte) bool {
			if n, _ := jsonraw.String(k); n == p {
				next = v
				return false
			}
			return true
		})
		if next == nil {
			return nil, false
		}
		cur = next
	}
	return cur, len(path) > 0
}

// sentinelDecode decodes a header value with decodeHeaderValue and reports
// whether it was a well-formed =?base64?…?= value.
func sentinelDecode(v string) (string, bool) {
	d := decodeHeaderValue(v)
	return d, d != v // a decoded value is always shorter than its encoding
}

// needsSentinel reports whether a string must travel base64-encoded: it
// has non-ASCII or control characters, leading or trailing whitespace, or
// looks like the sentinel itself.
func needsSentinel(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == ' ' || s[0] == '\t' || s[len(s)-1] == ' ' || s[len(s)-1] == '\t' {
		return true
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return true
		}
	}
	return strings.HasPrefix(s, sentinelPre) && strings.HasSuffix(s, sentinelPost)
}

// isDecimal reports whether s is an optionally signed run of decimal
// digits (ParseFloat alone would take hex, exponents and "inf").
func isDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
