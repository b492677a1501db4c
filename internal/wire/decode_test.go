package wire

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// view is the comparable part of a Frame.
type view struct {
	Kind    string
	ID      string
	Method  string
	Params  string
	Result  string
	Code    int64
	Message string
	Data    string
	CodeOK  bool
	Problem string
	Batch   []view
}

func viewOf(f Frame) view {
	v := view{
		Kind: f.Kind.String(), ID: f.ID.Raw(), Method: f.Method,
		Params: string(f.Params), Result: string(f.Result),
		Code: f.ErrorCode, Message: f.ErrorMessage, Data: string(f.ErrorData), CodeOK: f.CodeOK,
		Problem: f.Problem,
	}
	for _, b := range f.Batch {
		v.Batch = append(v.Batch, viewOf(b))
	}
	return v
}

func TestDecode(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 300)
	tests := []struct {
		name string
		in   string
		want view
	}{
		{"request", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`,
			view{Kind: "request", ID: "1", Method: "tools/call", Params: `{"name":"a"}`}},
		{"string id, members in any order", `{"method":"ping","id":"1","jsonrpc":"2.0"}`,
			view{Kind: "request", ID: `"1"`, Method: "ping"}},
		{"id keeps its raw token", `{"jsonrpc":"2.0","id":-12345678901234567890,"method":"x"}`,
			view{Kind: "request", ID: "-12345678901234567890", Method: "x"}},
		{"null id request is still a request", `{"jsonrpc":"2.0","id":null,"method":"x"}`,
			view{Kind: "request", ID: "null", Method: "x"}},
		{"escaped method", `{"jsonrpc":"2.0","method":"tools\/list"}`,
			view{Kind: "notification", Method: "tools/list"}},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			view{Kind: "notification", Method: "notifications/initialized"}},
		{"response", `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + long + `"}]}}`,
			view{Kind: "response", ID: "1", Result: `{"content":[{"type":"text","text":"` + long + `"}]}`}},
		{"long params survive the decoder's buffering", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":"` + long + `"},"x":"` + long + `"}`,
			view{Kind: "request", ID: "1", Method: "m", Params: `{"a":"` + long + `"}`}},
		{"error", `{"jsonrpc":"2.0","id":"a","error":{"code":-32602,"message":"bad","data":{"x":1}}}`,
			view{Kind: "error", ID: `"a"`, Code: -32602, Message: "bad", Data: `{"x":1}`, CodeOK: true}},
		{"error with null id", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`,
			view{Kind: "error", ID: "null", Code: -32700, Message: "parse error", CodeOK: true}},
		{"error without id", `{"jsonrpc":"2.0","error":{"code":-32600,"message":"m"}}`,
			view{Kind: "error", Code: -32600, Message: "m", CodeOK: true}},
		{"error with a bad shape", `{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}`,
			view{Kind: "error", ID: "1", Message: "m", Problem: ProblemErrorShape}},
		{"error with a fractional code", `{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}}`,
			view{Kind: "error", ID: "1", Message: "m", Problem: ProblemErrorShape}},
		{"result and error", `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}`,
			view{Kind: "error", ID: "1", Code: 1, Message: "m", CodeOK: true, Problem: ProblemBoth}},
		{"trailing CR and whitespace", " {\"jsonrpc\":\"2.0\",\"method\":\"a\"}\r\n",
			view{Kind: "notification", Method: "a"}},
		{"missing jsonrpc", `{"id":1,"result":{}}`,
			view{Kind: "response", ID: "1", Result: `{}`, Problem: ProblemVersion}},
		{"wrong jsonrpc", `{"jsonrpc":2.0,"method":"a"}`,
			view{Kind: "notification", Method: "a", Problem: ProblemVersion}},
		{"duplicate member", `{"jsonrpc":"2.0","id":1,"id":2,"method":"a"}`,
			view{Kind: "request", ID: "2", Method: "a", Problem: ProblemDuplicateID}},
		{"empty", "  \r\n", view{Kind: "invalid", Problem: ProblemEmpty}},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"method\":\"\xff\"}", view{Kind: "invalid", Problem: ProblemUTF8}},
		{"not JSON", "hello world", view{Kind: "invalid", Problem: ProblemJSON}},
		{"truncated object", `{"jsonrpc":"2.0","method":"a"`, view{Kind: "invalid", Problem: ProblemJSON}},
		{"trailing data", `{"jsonrpc":"2.0","method":"a"} {}`, view{Kind: "invalid", Problem: ProblemJSON}},
		{"not an object", `"just a string"`, view{Kind: "invalid", Problem: ProblemNotObject}},
		{"number", `42`, view{Kind: "invalid", Problem: ProblemNotObject}},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"a"}`, view{Kind: "invalid", Problem: ProblemIDType}},
		{"exponent id", `{"jsonrpc":"2.0","id":1e3,"method":"a"}`, view{Kind: "invalid", Problem: ProblemIDType}},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"a"}`, view{Kind: "invalid", Problem: ProblemIDType}},
		{"method not a string", `{"jsonrpc":"2.0","id":3,"method":5}`, view{Kind: "invalid", ID: "3", Problem: ProblemMethodType}},
		{"result without id", `{"jsonrpc":"2.0","result":{}}`, view{Kind: "invalid", Problem: ProblemShape}},
		{"nothing recognisable", `{"jsonrpc":"2.0","id":4}`, view{Kind: "invalid", ID: "4", Problem: ProblemShape}},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"n"},7]`,
			view{Kind: "batch", Batch: []view{
				{Kind: "request", ID: "1", Method: "a"},
				{Kind: "notification", Method: "n"},
				{Kind: "invalid", Problem: ProblemNotObject},
			}}},
		{"empty batch", `[ ]`, view{Kind: "batch", Problem: ProblemEmptyBatch}},
		{"broken batch", `[{"jsonrpc":"2.0"},`, view{Kind: "invalid", Problem: ProblemJSON}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := []byte(tt.in)
			if diff := cmp.Diff(tt.want, viewOf(Decode(in))); diff != "" {
				t.Errorf("Decode(%q) (-want +got):\n%s", tt.in, diff)
			}
			if string(in) != tt.in {
				t.Errorf("Decode modified its input: %q", in)
			}
		})
	}
}

func TestID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id                   ID
		raw, str             string
		zero, null, isString bool
	}{
		{ID{}, "", "<none>", true, false, false},
		{IntID(7), "7", "7", false, false, false},
		{StringID("7"), `"7"`, `"7"`, false, false, true},
		{NewID("null"), "null", "null", false, true, false},
	}
	for _, tt := range tests {
		if tt.id.Raw() != tt.raw || tt.id.String() != tt.str || tt.id.IsZero() != tt.zero ||
			tt.id.IsNull() != tt.null || tt.id.IsString() != tt.isString {
			t.Errorf("ID %q: got raw %q str %q zero %v null %v string %v", tt.raw,
				tt.id.Raw(), tt.id.String(), tt.id.IsZero(), tt.id.IsNull(), tt.id.IsString())
		}
	}
	if IntID(1) == StringID("1") {
		t.Error(`1 and "1" must be different ids`)
	}
}

func BenchmarkDecode(b *testing.B) {
	frames := map[string]string{
		"request":  `{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
		"response": `{"jsonrpc":"2.0","id":17,"result":{"resultType":"complete","content":[{"type":"text","text":"hello"}]}}`,
	}
	for name, s := range frames {
		in := []byte(s)
		b.Run(name, func(b *testing.B) {
			var d Decoder
			b.ReportAllocs()
			for b.Loop() {
				d.Decode(in)
			}
		})
		b.Run(name+"-plain", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Decode(in)
			}
		})
	}
}

// TestDecoderSharesMethods checks a Decoder allocates no method string for
// a name it has seen, decodes like Decode, and stops learning at its bound.
func TestDecoderSharesMethods(t *testing.T) {
	in := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}`)
	var d Decoder
	first := d.Decode(in)
	plain := testing.AllocsPerRun(100, func() { Decode(in) })
	shared := testing.AllocsPerRun(100, func() { d.Decode(in) })
	if shared != plain-1 {
		t.Errorf("Decoder.Decode allocates %v times, Decode %v: want one fewer (the method)", shared, plain)
	}
	if again := d.Decode(in); unsafe.StringData(again.Method) != unsafe.StringData(first.Method) {
		t.Error("Decoder.Decode did not share the method string it had seen")
	}
	for i := range 2 * maxMethods {
		name := fmt.Sprintf("m/%d", i)
		f := d.Decode(fmt.Appendf(nil, `{"jsonrpc":"2.0","method":%q}`, name))
		if f.Method != name {
			t.Fatalf("method %q decoded as %q", name, f.Method)
		}
	}
	if len(d.methods) > maxMethods {
		t.Errorf("Decoder holds %d names, bound %d", len(d.methods), maxMethods)
	}
	esc := d.Decode([]byte(`{"jsonrpc":"2.0","method":"tools\/call"}`))
	if esc.Method != "tools/call" {
		t.Errorf("escaped method decoded as %q", esc.Method)
	}
}
