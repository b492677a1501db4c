package htmlexport

import (
	"slices"
	"strings"
)

// filterItems are the rows the Go filter and the page's filter are both
// given: calls, a legacy elicitation, a late call, a notification and rows
// whose text and ids are hostile (case folding, escapes, odd spaces).
func filterItems() map[string]jsItem {
	none := []string{}
	return map[string]jsItem{
		"call": {Target: "get weather", Method: "tools/call", IDs: []string{"7", `"op-1"`}, Dir: "c2s", Status: "tool-error",
			Era: "modern", Elicit: none, Rules: []string{"late-response", "id-reused"}, Dur: 600, Message: "City Not Found"},
		"elicit": {Method: "elicitation/create", IDs: []string{"3", `"op-1"`}, Dir: "s2c", Status: "pending", Era: "legacy",
			Elicit: []string{"decline", "pending", "form"}, Rules: none, Dur: -1},
		"url": {Target: "pay", Method: "tools/call", IDs: []string{"4"}, Dir: "c2s", Status: "input-required", Era: "modern",
			Elicit: []string{"required", "url"}, Rules: none, Dur: 0.001},
		"late": {Target: "slow_tool", Method: "tools/call", IDs: []string{"9"}, Dir: "c2s", Status: "ok", Late: true, Era: "modern",
			Elicit: []string{"accept", "cancel", "error"}, Rules: none, Dur: 2500},
		"note": {Method: "notifications/progress", IDs: none, Dir: "s2c", Elicit: none, Rules: none, Dur: -1, Message: "50%"},
		"unicode": {Target: "İstanbul ΟΔΟΣ", Method: "tools/call", IDs: []string{`"a\/b"`, `"\u00e9t\u00e9"`, `"\ud800"`, `"\u0000x"`, `"bad\q"`}, Dir: "c2s",
			Status: "cancelled", Era: "modern", Elicit: none, Rules: none, Dur: 1.234567,
			Message: "KELVIN \u212a, ſ long s, tab\there, nel\u0085bom\ufeffend"},
		"huge": {Target: strings.Repeat("x", 5000) + "needle", Method: "tools/call", IDs: []string{"9223372036854775808"},
			Dir: "c2s", Status: "error", Era: "legacy", Elicit: none, Rules: []string{"*"}, Dur: 1e12},
	}
}

// filterCases are the filters both are given: each key and value, then
// mistakes, then hostile input.
func filterCases() []string {
	keys := []string{
		"", "tool:get", `tool:"get weather"`, "tool:get*", "tool:*weath*", "!tool:get*", "tool:*", "tool:**", "tool:a*b*c",
		"method:tools/call", "method:*/c*", "!method:notifications/*", "id:7", "id:op-1", `id:"\"op-1\""`, "id:op",
		"id:a/b", `id:"\"a\\/b\""`, "id:\ufffd", "id:\x00x", `id:bad\q`, `id:"\"bad\\q\""`, "id:été", "id:9223372036854775808", "dir:s2c", "dir:c2s", "DIR:C2S",
		"status:ok", "status:error", "status:tool-error", "status:input-required", "status:pending", "status:cancelled",
		"status:late", "STATUS:OK", "!status:pending", "era:legacy", "era:modern",
		"elicit:accept", "elicit:decline", "elicit:cancel", "elicit:pending", "elicit:required", "elicit:error",
		"elicit:form", "elicit:url", "elicit:app", "ELICIT:Form", "!elicit:url", "rule:id-reused", "rule:late-*", "rule:*", `rule:\*`,
		"weather", "not found", `"not found"`, "CREATE", "50%", "!weather", "tools/call status:ok",
	}
	slow := []string{
		"slow:>500ms", "slow:>600", "slow:>=600", "slow:<1s", "slow:<=0.6s", "slow:>1m", "slow:>2s500ms", "!slow:>500ms",
		"slow:>=1µs", "slow:>=1μs", "slow:>=1us", "slow:<=1000ns", "slow:>1.234566", "slow:<1.234568", "slow:>=1.234567ms",
		"slow:>.5", "slow:>5.", "slow:>0", "slow:>0s", "slow:>+5s", "slow:>-5s", "slow:>-0s", "slow:>1h2m3s4ms5us6ns",
		"slow:>1.5h", "slow:>2562047h47m16.854775807s", "slow:>2562047h47m16.854775808s", "slow:>9223372036s",
		"slow:>9223372036854775807ns", "slow:>9223372036854775808ns", "slow:>9223372036854775808ns9223372036854775808ns",
		"slow:>0.00000000000000000000000000001s", "slow:>1.99999999999999999999999s", "slow:>99999999999999999",
		"slow:>9223372036854", "slow:>" + strings.Repeat("9", 400), "slow:>0." + strings.Repeat("0", 400) + "1",
		"slow:>1e3", "slow:>1.2.3", "slow:>1s.", "slow:>.s", "slow:>s", "slow:>1", "slow:>1sx", "slow:>1S", "slow:>Inf",
		"slow:>NaN", "slow:>0x10", "slow:=5", "slow:>>5", "slow:><5", "slow:500ms", "slow:>", "slow:>fast", "slow:<=",
	}
	mistakes := []string{
		"bogus:x", "tool:", `tool:""`, `tool:"unterminated`, `"a"b`, `tool:"x"y`, "status:fine", `""`, ":x", "dir:up",
		`ab"c`, "!", "! x", "!!x", `"`, `"\`, `tool:"\`, `tool:"a\"`, `a ""`, "era:new", "x colour:red", "é status:x",
	}
	long := strings.Repeat("a", 20000)
	hostile := []string{
		// Case folding: İ folds to i in Go, a final Σ to σ; the Kelvin sign to k.
		"İD:7", "STATUS:OK İ", "istanbul", "İSTANBUL", "οδοσ", "ΟΔΟΣ", "ΟΔΟς", "kelvin k", "\u212aELVIN", "ſ", "S",
		// Spaces: Go's unicode.IsSpace, not JS's \s (U+0085 is one, U+FEFF is not).
		"tool:get\u0085status:tool-error", "nel\ufeffbom", "weather\u00a0city", "a\u2028b", "\u3000weather\u3000",
		"\ufeffweather", "tab\there", "\ttool:get\n",
		// Errors quote what they name: controls, quotes, bidi, astral.
		"bogus\x01:x", "tool:\"\x01\"", "status:\"\x7f\"", "status:\u202e", "status:\"a\\\"b\"", "id:\"\t\"",
		"\U0001F600:x", "status:\U0001F600", `"\U0001F600`, "\U0001F600\"", "é\U0001F600 bogus:é",
		"\x00", "tool:\x00", "status:\u0085", "STATUS:Ok\u0085", "bogus:\u2028",
		// Unbalanced and stray quotes.
		`tool:"a`, `"a`, `a"`, `"a"b"`, `tool:a"b"`, `"a" "b`, `!"`, `!"a`, `tool:"a b" c"`,
		// Very long.
		long, "tool:" + long, `"` + long, strings.Repeat("x ", 5000), strings.Repeat("tool:x* ", 2000),
		"bogus:" + long, "*needle", "needle", strings.Repeat("é", 3000) + " bogus:x",
		// Unknown keys and look-alikes.
		"tools:x", "Tool:get", "t:x", "slow_:1", "Slow:>1", "ıd:7", "kind:x", "filter:x", "__proto__:x", "constructor:x",
		"toString:x", "hasOwnProperty:x", "status:constructor", "elicit:__proto__", "dir:toString",
	}
	return slices.Concat(keys, slow, mistakes, hostile)
}
