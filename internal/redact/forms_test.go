package redact_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
)

func TestArgvForms(t *testing.T) {
	t.Parallel()
	secrets := redact.Options{Secrets: true}
	tests := []struct {
		name       string
		opts       redact.Options
		argv, want []string
	}{{
		name: "an sh -c string: flags with a value, flag=value, assignments",
		opts: secrets,
		argv: []string{"sh", "-c", "API_TOKEN=c1 node --token c2 --api-key=c3 --token=c4 x.js --password 'c 5' --secret \"c\\\"6\""},
		want: []string{"sh", "-c", "API_TOKEN=[REDACTED] node --token [REDACTED] --api-key=[REDACTED] --token=[REDACTED] x.js --password '[REDACTED]' --secret \"[REDACTED]\""},
	}, {
		name: "a flag followed by a flag keeps it; a word that merely ends in a key is no flag",
		opts: secrets,
		argv: []string{"bash", "-c", "srv --token --verbose my-token x --max-tokens 5 --tokenizer y"},
		want: []string{"bash", "-c", "srv --token --verbose my-token x --max-tokens 5 --tokenizer y"},
	}, {
		name: "URL userinfo and secret query parameters",
		opts: secrets,
		argv: []string{"mcp-remote", "https://ann:pw1@h.example/mcp?token=q1&apikey=q2&x=1#f", "--url=http://u:pw2@h/"},
		want: []string{"mcp-remote", "https://ann:[REDACTED]@h.example/mcp?token=[REDACTED]&apikey=[REDACTED]&x=1#f", "--url=http://u:[REDACTED]@h/"},
	}, {
		name: "without key rules, URL passwords still go; query parameters stay",
		opts: redact.Options{Answers: true},
		argv: []string{"sh", "-c", "proxy https://u:pw3@h/?token=kept --token kept"},
		want: []string{"sh", "-c", "proxy https://u:[REDACTED]@h/?token=kept --token kept"},
	}, {
		name: "user keys, matched as flags are (- read as _)",
		opts: redact.Options{Keys: []string{"db-url"}},
		argv: []string{"sh", "-c", "srv --db_url postgres://x --DB-URL=y DB_URL=z"},
		want: []string{"sh", "-c", "srv --db_url [REDACTED] --DB-URL=[REDACTED] DB_URL=[REDACTED]"},
	}, {
		name: "a JSON argument",
		opts: secrets,
		argv: []string{"srv", "--config", `{"github":{"api_key":"c7","n":1}}`},
		want: []string{"srv", "--config", `{"github":{"api_key":"[REDACTED]","n":1}}`},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, err := redact.New(&tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			got, changed := r.Argv(tc.argv)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if changed != !cmp.Equal(tc.argv, tc.want) {
				t.Errorf("changed = %v", changed)
			}
			if twice, c := r.Argv(got); c {
				t.Errorf("scrubbing twice changed %q to %q", got, twice)
			}
		})
	}
}

func TestTextForms(t *testing.T) {
	t.Parallel()
	stderr := func(in, want string) step { return step{dir: capture.S2C, t: capture.TypeStderr, in: in, want: want} }
	steps := []step{
		stderr("db password=pw1 user=ann", "db password=[REDACTED] user=ann"),
		stderr("token: tk1, next", "token: [REDACTED], next"),
		stderr(`cfg "api_key":"k1" 'secret'='s1'`, `cfg "api_key":"[REDACTED]" 'secret'='[REDACTED]'`),
		stderr("> Authorization: Bearer abc.def", "> Authorization: Bearer [REDACTED]"),
		stderr("Proxy-Authorization: Basic dXNlcjpwdw==", "Proxy-Authorization: Basic [REDACTED]"),
		stderr("Cookie: sid=1; theme=dark", "Cookie: [REDACTED]"),
		stderr(`{"h":"Set-Cookie: sid=2; Path=/"} x`, `{"h":"Set-Cookie: [REDACTED]"} x`),
		stderr("GET https://u:pw2@h/mcp?access_token=t2&page=2", "GET https://u:[REDACTED]@h/mcp?access_token=[REDACTED]&page=2"),
		stderr("starting with --token t3 --port 1", "starting with --token [REDACTED] --port 1"),
		stderr("passwordless=1 tokens=2 mytoken=3", ""),
		stderr("\xff password=pw4", "\xff password=[REDACTED]"),
		c2s("not json: password=pw5", "not json: password=[REDACTED]"),
		// A frame that looks like JSON is JSON: a string inside it is data,
		// a torn one keeps its quoted pairs scrubbed only.
		c2s(`{"jsonrpc":"2.0","method":"log","params":{"msg":"password=pw6"}}`, ""),
		c2s(`{"msg":"password=pw7", "token": "t8"`, `{"msg":"password=pw7", "token": "[REDACTED]"`),
	}
	r, err := redact.New(&redact.Options{Secrets: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range steps {
		typ := st.t
		if typ == "" {
			typ = capture.TypeFrame
		}
		want := st.want
		if want == "" {
			want = st.in
		}
		got, changed := r.Line(typ, st.dir, []byte(st.in))
		if diff := cmp.Diff(want, string(got)); diff != "" {
			t.Errorf("step %d: (-want +got)\n%s", i, diff)
		}
		if changed != (want != st.in) {
			t.Errorf("step %d: changed = %v", i, changed)
		}
		if twice, c := r.Line(typ, st.dir, got); c {
			t.Errorf("step %d: redacting again changed %q to %q", i, got, twice)
		}
		// The same line read back from a capture gets the same.
		rec := capture.Record{Type: typ, Dir: st.dir, Text: st.in}
		if typ == capture.TypeFrame && st.in[0] == '{' && want == st.in {
			continue // a JSON frame is msg, not text
		}
		if !isUTF8(st.in) {
			rec.Text, rec.B64 = "", []byte(st.in)
		}
		r.Record(&rec)
		if rec.Text+string(rec.B64) != want {
			t.Errorf("step %d: on read %q, on write %q", i, rec.Text+string(rec.B64), want)
		}
	}
}

func isUTF8(s string) bool {
	for _, c := range s {
		if c == '\uFFFD' {
			return false
		}
	}
	return true
}

func TestHeaderForms(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		opts      redact.Options
		in, want  map[string]string
		target    string
		wantTgt   string
		wantLabel string
	}{{
		name: "preset: Mcp-Param-* named after a key, and other secret headers",
		opts: redact.Options{Secrets: true},
		in:   map[string]string{"Mcp-Param-Api-Key": "k1", "Mcp-Param-Env": "staging", "X-Upstream-Token": "t1", "Content-Type": "application/json"},
		want: map[string]string{"Mcp-Param-Api-Key": "[REDACTED]", "Mcp-Param-Env": "staging", "X-Upstream-Token": "[REDACTED]", "Content-Type": "application/json"},
	}, {
		name: "preset: a DPoP proof (kept without its signature) and the DPoP token's hash are dropped; the nonce stays",
		opts: redact.Options{Secrets: true},
		in:   map[string]string{"DPoP": "eyJ0eXAiOiJkcG9wK2p3dCJ9.eyJqdGkiOiJqIn0.", "Authorization": "DPoP [present] sha256=abc", "DPoP-Nonce": "n-1"},
		want: map[string]string{"DPoP": "[REDACTED]", "Authorization": "[REDACTED]", "DPoP-Nonce": "n-1"},
	}, {
		name: "a user key matches its header spellings, ignoring case, - and _",
		opts: redact.Options{Keys: []string{"apiKey", "env_name"}},
		in:   map[string]string{"Mcp-Param-Api-Key": "k2", "mcp-param-apikey": "k3", "Mcp-Param-Env-Name": "e1", "Mcp-Param-Region": "eu"},
		want: map[string]string{"Mcp-Param-Api-Key": "[REDACTED]", "mcp-param-apikey": "[REDACTED]", "Mcp-Param-Env-Name": "[REDACTED]", "Mcp-Param-Region": "eu"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, err := redact.New(&tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			rec := capture.Record{Type: capture.TypeFrame, Dir: capture.C2S, HTTP: &capture.HTTP{Headers: tc.in}}
			r.Record(&rec)
			if diff := cmp.Diff(tc.want, rec.HTTP.Headers); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestTarget(t *testing.T) {
	t.Parallel()
	tests := []struct {
		opts         redact.Options
		target, want string
	}{
		{redact.Options{Secrets: true}, "http://h:8/mcp?apikey=c1&v=2&Token=c2", "http://h:8/mcp?apikey=[REDACTED]&v=2&Token=[REDACTED]"},
		{redact.Options{Keys: []string{"sig"}}, "https://u:xxxxx@h/mcp?sig=c3&apikey=kept", "https://u:[REDACTED]@h/mcp?sig=[REDACTED]&apikey=kept"},
		{redact.Options{Answers: true}, "https://h/mcp?apikey=kept", "https://h/mcp?apikey=kept"},
	}
	for _, tc := range tests {
		r, err := redact.New(&tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		hdr := capture.Record{Type: capture.TypeSession, Transport: "http", Target: tc.target}
		r.Record(&hdr)
		if hdr.Target != tc.want {
			t.Errorf("%s: target %q, want %q", tc.target, hdr.Target, tc.want)
		}
		if got, _ := r.Text(tc.target); got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.target, got, tc.want)
		}
	}
}

func TestLabelFromShellString(t *testing.T) {
	t.Parallel()
	r, err := redact.New(&redact.Options{Secrets: true})
	if err != nil {
		t.Fatal(err)
	}
	command := []string{"sh", "-c", "node --token CANARY1 x.js"}
	for label, want := range map[string]string{"CANARY1": redact.Placeholder, "CANARY": redact.Placeholder, "x": "x", "node": "node"} {
		if got, _ := r.Label(label, command); got != want {
			t.Errorf("Label(%q) = %q, want %q", label, got, want)
		}
	}
}

func TestNewRejects(t *testing.T) {
	t.Parallel()
	for _, opts := range []redact.Options{
		{Keys: []string{""}},
		{Keys: []string{"a", " "}},
		{Paths: []string{"foo"}},
		{Paths: []string{"params.x"}},
		{Paths: []string{"$.["}},
	} {
		if _, err := redact.New(&opts); err == nil {
			t.Errorf("New accepted %+v", opts)
		}
	}
	if _, err := redact.New(&redact.Options{Keys: []string{""}}); !errors.Is(err, redact.ErrEmptyKey) {
		t.Errorf("an empty key: %v, want ErrEmptyKey", err)
	}
}

// FuzzTextForms feeds arbitrary text to the text forms as a stderr line,
// a text frame and a command-line argument: no panic, the same result on
// write (Line) and on read (Record), and redacting twice changes nothing.
func FuzzTextForms(f *testing.F) {
	for _, s := range []string{
		"password=pw1 token: t2", "Authorization: Bearer x", "Cookie: a=1; b=2", `"api_key":"k"`,
		"https://u:p@h/?token=1&apikey=2", "--token 'a b' --api-key=\"c\\\"d\"", "\xff password=p", "token=[REDACTED]]",
		"Authorization: Basic ", "--token", "secret='", `token: "`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := redact.New(&redact.Options{Secrets: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, typ := range []capture.Type{capture.TypeStderr, capture.TypeFrame} {
			once, _ := r.Line(typ, capture.C2S, []byte(s))
			if twice, c := r.Line(typ, capture.C2S, once); c {
				t.Fatalf("%s: redacting %q twice changed %q to %q", typ, s, once, twice)
			}
			rec := capture.Record{Type: typ, Dir: capture.C2S, Text: s}
			if !isUTF8(s) {
				rec.Text, rec.B64 = "", []byte(s)
			}
			if typ == capture.TypeFrame && !textFrame(s) {
				continue // the writer may record it as msg
			}
			r.Record(&rec)
			if got := rec.Text + string(rec.B64); got != string(once) {
				t.Fatalf("%s %q: on read %q, on write %q", typ, s, got, once)
			}
		}
		argv := []string{"sh", "-c", s, s}
		once, _ := r.Argv(argv)
		if twice, c := r.Argv(once); c {
			t.Fatalf("scrubbing %q twice changed %q to %q", argv, once, twice)
		}
	})
}

// textFrame reports whether a frame line is recorded as text: it does not
// start, past white space, like JSON.
func textFrame(s string) bool {
	for _, c := range s {
		switch c {
		case ' ', '\t', '\n', '\r', '\v', '\f', '\u0085', '\u00a0':
			continue
		case '{', '[':
			return false
		}
		return true
	}
	return true
}

// TestNoteForms: a note quoting the target (an upstream error) loses the
// secret query parameters too.
func TestNoteForms(t *testing.T) {
	t.Parallel()
	r, err := redact.New(&redact.Options{Secrets: true})
	if err != nil {
		t.Fatal(err)
	}
	rec := capture.Record{Type: capture.TypeNote, Note: "upstream-error", Text: `answered 502: Post "http://127.0.0.1:1/mcp?apikey=c1&v=1": dial tcp 127.0.0.1:1: connect: connection refused`}
	if !r.Record(&rec) || !rec.Redacted {
		t.Fatal("the note was not redacted")
	}
	if want := `answered 502: Post "http://127.0.0.1:1/mcp?apikey=[REDACTED]&v=1": dial tcp 127.0.0.1:1: connect: connection refused`; rec.Text != want {
		t.Errorf("note %q, want %q", rec.Text, want)
	}
}
