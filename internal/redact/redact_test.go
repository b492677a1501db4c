package redact_test

import (
	"io"
	"regexp"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
)

// step is one line through a Redactor: in is what the tap read, want what
// the capture records ("" means unchanged).
type step struct {
	dir      capture.Dir
	t        capture.Type
	in, want string
}

func c2s(in, want string) step { return step{dir: capture.C2S, in: in, want: want} }
func s2c(in, want string) step { return step{dir: capture.S2C, in: in, want: want} }

func res(re ...string) []*regexp.Regexp {
	var out []*regexp.Regexp
	for _, s := range re {
		out = append(out, regexp.MustCompile(s))
	}
	return out
}

const toolsList = `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"login","description":"sk-abc","inputSchema":{"type":"object",` +
	`"properties":{"password":{"type":"string","description":"sk-abc","default":"hunter2"},` +
	`"token":{"type":"string","enum":["a","b"]},"n":{"type":"number","default":{"token":"deep","x":"sk-abc"}}}},` +
	`"outputSchema":{"properties":{"secret":{"examples":["e"],"const":"c"}}}}]}}`

const toolsListRedacted = `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"login","description":"[REDACTED]","inputSchema":{"type":"object",` +
	`"properties":{"password":{"type":"string","description":"sk-abc","default":"[REDACTED]"},` +
	`"token":{"type":"string","enum":"[REDACTED]"},"n":{"type":"number","default":{"token":"[REDACTED]","x":"[REDACTED]"}}}},` +
	`"outputSchema":{"properties":{"secret":{"examples":"[REDACTED]","const":"[REDACTED]"}}}}]}}`

func TestRedactLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		opts  redact.Options
		steps []step
	}{{
		name: "secret preset: any depth, any case, whole value; the rest verbatim",
		opts: redact.Options{Secrets: true},
		steps: []step{
			c2s(`{"a":1,"Token":"x","b":{"PASSWORD":{"n":[1,2]},"api_key":null},"apiKey":7}`,
				`{"a":1,"Token":"[REDACTED]","b":{"PASSWORD":"[REDACTED]","api_key":"[REDACTED]"},"apiKey":"[REDACTED]"}`),
			c2s(" { \"z\" : \"\\u0041\\/\" ,\t\"token\" : \"x\" , \"y\":1.50e+2 }\r",
				" { \"z\" : \"\\u0041\\/\" ,\t\"token\" : \"[REDACTED]\" , \"y\":1.50e+2 }\r"),
			c2s(`{"p\u0061ssword":"x"}`, `{"p\u0061ssword":"[REDACTED]"}`),
			c2s(`{"tokens":1,"my_token":2,"a":"token"}`, `{"tokens":1,"my_token":"[REDACTED]","a":"token"}`),
			c2s(`{"max_tokens":1,"token_count":2,"inputTokens":3,"keyboard":4,"monkey":5,"key":6}`, ""),
			c2s(`[{"token":1},{"x":{"secret":[1]}}]`, `[{"token":"[REDACTED]"},{"x":{"secret":"[REDACTED]"}}]`),
			s2c(`{"token":"[REDACTED]"}`, ""),
		},
	}, {
		name: "user keys",
		opts: redact.Options{Keys: []string{"Query", "ssn"}},
		steps: []step{
			c2s(`{"params":{"arguments":{"query":"q","SSN":"1","token":"kept"}}}`,
				`{"params":{"arguments":{"query":"[REDACTED]","SSN":"[REDACTED]","token":"kept"}}}`),
		},
	}, {
		name: "tool schemas keep structure; default, const, examples and enum are data",
		opts: redact.Options{Secrets: true, Values: res(`sk-[a-z]+`)},
		steps: []step{
			s2c(toolsList, toolsListRedacted),
		},
	}, {
		name: "legacy requestedSchema is exempt; its default is not",
		opts: redact.Options{Secrets: true},
		steps: []step{
			s2c(`{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{"password":{"type":"string","default":"pw"}},"required":["password"]}}}`,
				`{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{"password":{"type":"string","default":"[REDACTED]"}},"required":["password"]}}}`),
		},
	}, {
		name: "MRTR requestedSchema is exempt",
		opts: redact.Options{Secrets: true},
		steps: []step{
			s2c(`{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required","inputRequests":{"k":{"method":"elicitation/create","params":{"mode":"form","message":"m","requestedSchema":{"properties":{"token":{"type":"string"}}}}}},"requestState":"s"}}`, ""),
		},
	}, {
		name: "schema-named members elsewhere are not exempt",
		opts: redact.Options{Secrets: true},
		steps: []step{
			c2s(`{"params":{"arguments":{"inputSchema":{"password":"x"}}},"x":{"requestedSchema":{"token":"y"}}}`,
				`{"params":{"arguments":{"inputSchema":{"password":"[REDACTED]"}}},"x":{"requestedSchema":{"token":"[REDACTED]"}}}`),
		},
	}, {
		name: "paths, with wildcards and descent, reach into schemas",
		opts: redact.Options{Paths: []string{`$.params.arguments.card`, `$..ssn`, `$.items[*].v`, `$..requestedSchema.properties.*`}},
		steps: []step{
			c2s(`{"params":{"arguments":{"card":{"n":"4111"},"other":1}},"a":[{"ssn":"1"},{"b":{"ssn":2}}],"items":[{"v":1,"w":2},{"v":[3]}]}`,
				`{"params":{"arguments":{"card":"[REDACTED]","other":1}},"a":[{"ssn":"[REDACTED]"},{"b":{"ssn":"[REDACTED]"}}],"items":[{"v":"[REDACTED]","w":2},{"v":"[REDACTED]"}]}`),
			s2c(`{"id":7,"method":"elicitation/create","params":{"requestedSchema":{"properties":{"email":{"type":"string"},"age":{"type":"number"}}}}}`,
				`{"id":7,"method":"elicitation/create","params":{"requestedSchema":{"properties":{"email":"[REDACTED]","age":"[REDACTED]"}}}}`),
			c2s(`{"a":{"ssn":1},"a":2,"items":[{"v":1}],"items":{"v":2}}`, `{"a":{"ssn":"[REDACTED]"},"a":2,"items":[{"v":"[REDACTED]"}],"items":{"v":2}}`),
		},
	}, {
		name: "value regexes: inside string values, not names; idempotent when anchored",
		opts: redact.Options{Values: res(`sk-[a-z0-9]+`, `^ab`)},
		steps: []step{
			c2s(`{"sk-abc":"key sk-abc and sk-1","n":["x sk-z"],"m":"\u0073k-q"}`,
				`{"sk-abc":"key [REDACTED] and [REDACTED]","n":["x [REDACTED]"],"m":"[REDACTED]"}`),
			c2s(`{"a":"ababx"}`, `{"a":"[REDACTED][REDACTED]x"}`),
			{dir: capture.S2C, t: capture.TypeStderr, in: "using key sk-abc", want: "using key [REDACTED]"},
			c2s(`not json sk-abc`, `not json [REDACTED]`),
			c2s("\xffbin sk-abc\xfe", "\xffbin [REDACTED]\xfe"),
		},
	}, {
		name: "a torn JSON frame is text: quoted key-value pairs are scrubbed",
		opts: redact.Options{Secrets: true},
		steps: []step{
			c2s(`{"jsonrpc":"2.0","params":{"token": "abc", "password":12, "x":"y"`,
				`{"jsonrpc":"2.0","params":{"token": "[REDACTED]", "password":"[REDACTED]", "x":"y"`),
			{dir: capture.S2C, t: capture.TypeStderr, in: `config {"apiKey":"sk-1"}`, want: `config {"apiKey":"[REDACTED]"}`},
		},
	}, {
		name: "answers, 2026-07-28: inputResponses content values, names kept",
		opts: redact.Options{Answers: true},
		steps: []step{
			c2s(`{"jsonrpc":"2.0","id":"c-42","method":"tools/call","params":{"name":"deploy","arguments":{"window":"x"},"inputResponses":{"approve":{"action":"accept","content":{"confirm":true,"window":"now","o":{"a":1}}},"s":{"action":"accept","content":"text"}},"requestState":"st"}}`,
				`{"jsonrpc":"2.0","id":"c-42","method":"tools/call","params":{"name":"deploy","arguments":{"window":"x"},"inputResponses":{"approve":{"action":"accept","content":{"confirm":"[REDACTED]","window":"[REDACTED]","o":"[REDACTED]"}},"s":{"action":"accept","content":"[REDACTED]"}},"requestState":"st"}}`),
			c2s(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"deploy","arguments":{"content":{"a":1}}}}`, ""),
		},
	}, {
		name: "answers, legacy: the response to a server elicitation/create",
		opts: redact.Options{Answers: true},
		steps: []step{
			s2c(`{"jsonrpc":"2.0","id":5,"method":"elicitation/create","params":{"message":"name?","requestedSchema":{"properties":{"name":{"type":"string"}}}}}`, ""),
			s2c(`{"jsonrpc":"2.0","id":6,"method":"sampling/createMessage","params":{"messages":[]}}`, ""),
			c2s(`{"jsonrpc":"2.0","result":{"content":{"name":"Ann","age":3}},"id":5}`,
				`{"jsonrpc":"2.0","result":{"content":{"name":"[REDACTED]","age":"[REDACTED]"}},"id":5}`),
			c2s(`{"jsonrpc":"2.0","id":6,"result":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}}`, ""),
			c2s(`{"jsonrpc":"2.0","id":"unknown","result":{"action":"accept","content":{"name":"Bob"}}}`,
				`{"jsonrpc":"2.0","id":"unknown","result":{"action":"accept","content":{"name":"[REDACTED]"}}}`),
			c2s(`[{"jsonrpc":"2.0","id":9,"result":{}},{"jsonrpc":"2.0","id":5,"result":{"action":"accept","content":{"n":"x"}}}]`,
				`[{"jsonrpc":"2.0","id":9,"result":{}},{"jsonrpc":"2.0","id":5,"result":{"action":"accept","content":{"n":"[REDACTED]"}}}]`),
		},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, err := redact.New(&tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := redact.New(&tc.opts)
			for i, st := range tc.steps {
				typ := st.t
				if typ == "" {
					typ = capture.TypeFrame
				}
				want := st.want
				if want == "" {
					want = st.in
				}
				// The capture writer skips Line for a JSON frame none of
				// whose member names the Redactor's filter selects: only
				// for frames Line leaves alone.
				if f := r.Names(st.dir); f != nil && typ == capture.TypeFrame {
					done, err := capture.NewWriter(io.Discard).WriteLineUnselected(typ, 1, time.Time{}, st.dir, []byte(st.in), false, f)
					if err != nil {
						t.Fatal(err)
					}
					if done && want != st.in {
						t.Errorf("step %d: the NameFilter let through a line Line changes", i)
					}
				}
				got, changed := r.Line(typ, st.dir, []byte(st.in))
				if diff := cmp.Diff(want, string(got)); diff != "" {
					t.Errorf("step %d: (-want +got)\n%s", i, diff)
				}
				if changed != (want != st.in) {
					t.Errorf("step %d: changed = %v", i, changed)
				}
				// Idempotent: the redacted line goes through unchanged.
				if twice, c := again.Line(typ, st.dir, got); c {
					t.Errorf("step %d: redacting again changed %s\nto %s", i, got, twice)
				}
			}
		})
	}
}

func TestArgv(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		opts       redact.Options
		argv, want []string
	}{{
		name: "flags and assignments",
		opts: redact.Options{Secrets: true},
		argv: []string{"server", "--api-key=sk-x", "--token", "sk-y", "API_KEY=sk-z", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN=ghp", "--max-tokens", "100", "--password", "--verbose", "Authorization: Bearer t"},
		want: []string{"server", "--api-key=[REDACTED]", "--token", "[REDACTED]", "API_KEY=[REDACTED]", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN=[REDACTED]", "--max-tokens", "100", "--password", "--verbose", "Authorization: [REDACTED]"},
	}, {
		name: "user keys and value regexes",
		opts: redact.Options{Keys: []string{"db-url"}, Values: res(`sk-[a-z]+`)},
		argv: []string{"x", "--db_url", "postgres://u:p@h", "--note=sk-abc", "plain"},
		want: []string{"x", "--db_url", "[REDACTED]", "--note=[REDACTED]", "plain"},
	}, {
		name: "nothing to do",
		opts: redact.Options{Secrets: true},
		argv: []string{"npx", "-y", "@scope/server", "--", "--token"},
		want: []string{"npx", "-y", "@scope/server", "--", "--token"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, err := redact.New(&tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			orig := append([]string(nil), tc.argv...)
			got, _ := r.Argv(tc.argv)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if diff := cmp.Diff(orig, tc.argv); diff != "" {
				t.Errorf("the argv passed in changed: %s", diff)
			}
			hdr := capture.Record{Type: capture.TypeSession, Command: tc.argv}
			r.Record(&hdr)
			if diff := cmp.Diff(tc.want, hdr.Command); diff != "" || !hdr.Redacted {
				t.Errorf("header: redacted=%v (-want +got)\n%s", hdr.Redacted, diff)
			}
		})
	}
}

func TestLabel(t *testing.T) {
	t.Parallel()
	r, err := redact.New(&redact.Options{Secrets: true, Values: res(`sk-[a-z]+`)})
	if err != nil {
		t.Fatal(err)
	}
	command := []string{"node", "--token", "ghp_abc", "--api-key=key-xyz", "index.js", "--name", "ghp"}
	tests := []struct{ label, want string }{
		{"ghp_abc", "[REDACTED]"}, // the value of --token
		{"key-xyz", "[REDACTED]"}, // the value of --api-key=
		{"abc", "[REDACTED]"},     // part of a scrubbed value
		{"index", "index"},        // an argument no rule scrubs
		{"ghp", "[REDACTED]"},     // part of a scrubbed value, though --name holds it too
		{"team-sk-abc", "team-[REDACTED]"},
		{"[REDACTED]", "[REDACTED]"},
		{"", ""},
	}
	for _, tc := range tests {
		got, changed := r.Label(tc.label, command)
		if got != tc.want || changed != (tc.want != tc.label) {
			t.Errorf("Label(%q) = %q, %v; want %q", tc.label, got, changed, tc.want)
		}
	}
	// The header's label is scrubbed against its command line as it was,
	// and a second pass changes nothing.
	hdr := capture.Record{Type: capture.TypeSession, Label: "ghp_abc", Command: command}
	r.Record(&hdr)
	if hdr.Label != redact.Placeholder || hdr.Command[2] != redact.Placeholder {
		t.Errorf("header: label %q, command %q", hdr.Label, hdr.Command)
	}
	if r.Record(&hdr) {
		t.Errorf("redacting the header twice changed it: %+v", hdr)
	}
}

func TestRecord(t *testing.T) {
	t.Parallel()
	r, err := redact.New(&redact.Options{Secrets: true, Values: res(`sk-[a-z]+`)})
	if err != nil {
		t.Fatal(err)
	}
	in := []capture.Record{
		{Type: capture.TypeFrame, Dir: capture.C2S, Size: 30, Msg: []byte(`{"token":"a","b":1}`), Raw: " {\"token\":\"a\", \"b\":1}\r",
			HTTP: &capture.HTTP{Headers: map[string]string{"Authorization": "Bearer x", "Content-Type": "sk-abc"}}},
		{Type: capture.TypeFrame, Dir: capture.S2C, Size: 9, Msg: []byte(`{"b":1}`)},
		{Type: capture.TypeStderr, Text: "boot sk-abc"},
		{Type: capture.TypeNote, Note: capture.NoteRelayError, Text: "failed sk-abc"},
		{Type: capture.TypeEnd},
	}
	want := []capture.Record{
		{Type: capture.TypeFrame, Dir: capture.C2S, Size: 30, Msg: []byte(`{"token":"[REDACTED]","b":1}`), Raw: " {\"token\":\"[REDACTED]\", \"b\":1}\r",
			HTTP: &capture.HTTP{Headers: map[string]string{"Authorization": "[REDACTED]", "Content-Type": "[REDACTED]"}}, Redacted: true},
		{Type: capture.TypeFrame, Dir: capture.S2C, Size: 9, Msg: []byte(`{"b":1}`)},
		{Type: capture.TypeStderr, Text: "boot [REDACTED]", Redacted: true},
		{Type: capture.TypeNote, Note: capture.NoteRelayError, Text: "failed [REDACTED]", Redacted: true},
		{Type: capture.TypeEnd},
	}
	headers := in[0].HTTP.Headers
	for i := range in {
		r.Record(&in[i])
	}
	if diff := cmp.Diff(want, in); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if headers["Authorization"] != "Bearer x" {
		t.Error("the header map passed in was modified")
	}
}

func TestInvalidPath(t *testing.T) {
	t.Parallel()
	if _, err := redact.New(&redact.Options{Paths: []string{"$.["}}); err == nil {
		t.Error("New accepted $.[")
	}
}
