package wire

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":"x","result":{"resultType":"input_required","requestState":"s"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error","data":[1]}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":1,"result":{}},3]`,
		`{"jsonrpc":"2.0","id":1,"id":2,"method":"a"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"a"}`,
		"{\"jsonrpc\":\"2.0\",\"method\":\"\xff\"}",
		"  {\"jsonrpc\":\"2.0\",\"method\":\"a\"}\r",
		`[]`, `null`, `{}`, `{"a":`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		orig := bytes.Clone(in)
		fr := Decode(in)
		if !bytes.Equal(in, orig) {
			t.Fatalf("Decode modified its input")
		}
		checkFrame(t, fr, true)
		again := Decode(in)
		var d Decoder
		for range 2 { // the second decode takes the method from d's table
			if got := d.Decode(in); !cmp.Equal(viewOf(got), viewOf(fr)) {
				t.Fatalf("Decoder.Decode = %+v, Decode = %+v", viewOf(got), viewOf(fr))
			}
		}
		if viewOf(fr).Kind != viewOf(again).Kind || fr.Problem != again.Problem || fr.ID != again.ID {
			t.Fatalf("Decode is not deterministic: %+v vs %+v", fr, again)
		}
	})
}

// checkFrame asserts that a frame's Kind agrees with the fields it sets.
func checkFrame(t *testing.T, fr Frame, top bool) {
	t.Helper()
	if raw := fr.ID.Raw(); raw != "" && !jsontext.Value(raw).IsValid() {
		t.Fatalf("id %q is not a JSON token", raw)
	}
	for _, v := range []jsontext.Value{fr.Params, fr.Result, fr.ErrorData} {
		if v != nil && !v.IsValid(jsontext.AllowDuplicateNames(true)) {
			t.Fatalf("raw value %q is not valid JSON", v)
		}
	}
	if fr.Kind != KindBatch && fr.Batch != nil {
		t.Fatalf("%s frame with batch elements", fr.Kind)
	}
	switch fr.Kind {
	case KindInvalid:
		if fr.Problem == "" || fr.Method != "" || fr.Params != nil || fr.Result != nil {
			t.Fatalf("invalid frame with content or no problem: %+v", fr)
		}
	case KindRequest:
		if fr.ID.IsZero() || fr.Result != nil {
			t.Fatalf("request without id or with a result: %+v", fr)
		}
	case KindNotification:
		if !fr.ID.IsZero() || fr.Result != nil {
			t.Fatalf("notification with an id or a result: %+v", fr)
		}
	case KindResponse:
		if fr.ID.IsZero() || fr.Result == nil || fr.Method != "" {
			t.Fatalf("response without id or result: %+v", fr)
		}
	case KindError:
		if fr.Method != "" || (!fr.CodeOK && fr.Problem == "") {
			t.Fatalf("error with a method, or a bad shape unreported: %+v", fr)
		}
	case KindBatch:
		if !top {
			t.Fatalf("nested batch")
		}
		if (len(fr.Batch) == 0) != (fr.Problem == ProblemEmptyBatch) {
			t.Fatalf("batch of %d with problem %q", len(fr.Batch), fr.Problem)
		}
		for _, el := range fr.Batch {
			checkFrame(t, el, false)
		}
	default:
		t.Fatalf("unknown kind %d", fr.Kind)
	}
	if fr.IsMessage() != (fr.Kind != KindInvalid && fr.Kind != KindBatch) {
		t.Fatalf("IsMessage disagrees with kind %s", fr.Kind)
	}
}

// FuzzDecodeDifferential checks Decode against the token-by-token decoder it
// replaced (decode_ref_test.go). They agree on everything except input with
// junk after the message: the old decoder only noticed trailing data that
// formed a valid token, while Decode reports any as not valid JSON.
func FuzzDecodeDifferential(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{}}}`,
		`{"json\u0072pc":"2\u002e0","id":"x","result":{"a":"}\"]"},"result":1}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error","data":[1]}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1,"code":2,"message":"m"}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1e2,"message":"m","data":{"a":1,"a":2}}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"a"} , {"a":1,"a":2}, 3 ]`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}} }`,
		` [ ] `, `{ }`, `{"a" : [ 1 , 2 ] , "method" : "x" }`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		got, want := viewOf(Decode(in)), viewOf(refDecode(in))
		trimmed := bytes.TrimSpace(in)
		if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') && utf8.Valid(trimmed) &&
			!jsontext.Value(trimmed).IsValid(jsontext.AllowDuplicateNames(true)) {
			if got.Kind != "invalid" || got.Problem != ProblemJSON {
				t.Fatalf("Decode(%q) = %+v, want not valid JSON", in, got)
			}
			return
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("Decode(%q) differs from the reference (-ref +new):\n%s", in, diff)
		}
	})
}

// FuzzDecodeValid holds DecodeValid to Decode on every input that meets
// its contract (one valid JSON value in valid UTF-8, no whitespace
// around it).
func FuzzDecodeValid(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":1,"id":2,"method":"a"}`,
		`{"json\u0072pc":"2\u002e0","id":"x","result":{"a":"}\"]"},"result":1}`,
		`[{"jsonrpc":"2.0","id":1,"method":"a"},{"a":1,"a":2}]`,
		`{ "jsonrpc" : "2.0" , "method" : "x" }`, `{}`, `[]`, `3`, `"s"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if !utf8.Valid(in) || !bytes.Equal(bytes.TrimSpace(in), in) || !jsontext.Value(in).IsValid(jsontext.AllowDuplicateNames(true)) {
			return
		}
		var d, e Decoder
		got, want := viewOf(d.DecodeValid(in)), viewOf(e.Decode(in))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("DecodeValid(%q) differs from Decode (-Decode +DecodeValid):\n%s", in, diff)
		}
	})
}
