package store

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// ledgerLines renders rows compactly for diffs:
// "root key era mode fields|host status action elapsed seqs obs".
func ledgerLines(rows []LedgerRow) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		root := "root=-"
		if r.Root.Call >= 0 {
			root = fmt.Sprintf("root=%d:%s[%s]#%s", r.Root.Call, r.Root.Method, r.Root.Target, r.Root.ID.Raw())
		}
		s := fmt.Sprintf("%s r%d req=%s", root, r.Round, r.RequestID.Raw())
		if r.Era == LedgerMRTR {
			s += " key=" + r.Key
		}
		s += fmt.Sprintf(" %s %s %q", r.Era, r.Mode, r.Message)
		if r.Fields != nil {
			var fs []string
			for _, f := range r.Fields {
				star := ""
				if f.Required {
					star = "*"
				}
				opts := ""
				if f.Options != nil {
					opts = "(" + strings.Join(f.Options, "|") + ")"
				}
				fs = append(fs, f.Name+":"+f.Type+opts+star)
			}
			s += " fields=" + strings.Join(fs, ",")
		}
		if r.URL != "" || r.Host != "" {
			s += fmt.Sprintf(" url=%s host=%s", r.URL, r.Host)
		}
		if r.ElicitationID != "" {
			s += " eid=" + r.ElicitationID
		}
		s += " " + r.Status
		if r.Action != "" {
			s += " action=" + r.Action
		}
		if r.AnsweredSeq != 0 {
			s += fmt.Sprintf(" %d→%d %gms", r.AskedSeq, r.AnsweredSeq, r.ElapsedMS)
		} else {
			s += fmt.Sprintf(" %d→", r.AskedSeq)
		}
		if !r.CompletedAt.IsZero() {
			s += " completed+" + r.CompletedAt.Sub(r.AskedAt).String()
		}
		if len(r.Observations) > 0 {
			s += " obs=" + strings.Join(r.Observations, ",")
		}
		out[i] = s
	}
	return out
}

// capsMeta is a modern _meta declaring the given clientCapabilities.
func capsMeta(caps string) string {
	return `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}`
}

const bothModes = `{"elicitation":{"form":{},"url":{}}}`

// call is a modern tools/call declaring caps; extra starts with a comma.
func call(id, name, caps, extra string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":%q,"arguments":{}%s,%s}}`,
		id, name, extra, capsMeta(caps))
}

// ask is one inputRequests entry holding an elicitation/create with params.
func ask(key, params string) string {
	return fmt.Sprintf(`%q:{"method":"elicitation/create","params":%s}`, key, params)
}

// answers is the inputResponses member of a retry, with its state.
func answers(state string, entries ...string) string {
	return fmt.Sprintf(`,"inputResponses":{%s},"requestState":%q`, strings.Join(entries, ","), state)
}

func TestLedgerMRTR(t *testing.T) {
	t.Parallel()
	form := `{"message":"Who?","requestedSchema":{"type":"object","properties":{"name":{"type":"string","default":"bob"},"age":{"type":"integer"}},"required":["name"]}}`
	tests := []struct {
		name  string
		steps []step
		want  []string
	}{{
		name: "no mode is form mode; placeholder and typeless subschemas are unknown, an enum keeps its options, a type array is a union",
		steps: []step{
			c2s(0, call("1", "t", bothModes, "")),
			s2c(10, inputRequired("1", `{`+ask("k", `{"message":"Say","requestedSchema":{"type":"object","properties":{"pw":"[REDACTED]","n":{"title":"no type"},"e":{"type":"string","enum":["x","y"]},"m":{"type":["string","null"]}},"required":["pw","zz"]}}`)+`}`, "s1")),
			c2s(920, call("2", "t", bothModes, answers("s1", `"k":{"action":"accept","content":{"pw":"hunter2"}}`))),
			s2c(5, done("2")),
		},
		want: []string{`root=0:tools/call[t]#1 r1 req=1 key=k mrtr form "Say" fields=pw:unknown*,n:unknown,e:enum(x|y),m:string|null answered action=accept 2→3 920ms`},
	}, {
		name: "url mode: url and host, never fields; suspicious urls observed",
		steps: []step{
			c2s(0, call("1", "t", bothModes, "")),
			s2c(10, inputRequired("1", `{`+
				ask("a", `{"mode":"url","message":"m","url":"https://mcp.example.com:8443/x?y=1","requestedSchema":{"type":"object","properties":{"x":{"type":"string"}}}}`)+`,`+
				ask("b", `{"mode":"url","message":"m","url":"http://user:pw@10.0.0.1/x"}`)+`,`+
				ask("c", `{"mode":"url","message":"m","url":"https://xn--80ak6aa92e.com/"}`)+`,`+
				ask("d", `{"mode":"url","message":"m","url":"not a url"}`)+`,`+
				ask("e", `{"mode":"url","message":"m","url":"https://[::1]/"}`)+`}`, "s1")),
			c2s(100, call("2", "t", bothModes, answers("s1", `"a":{"action":"accept"}`, `"b":{"action":"decline"}`, `"c":{"action":"cancel"}`, `"d":{"action":"accept"}`, `"e":{"action":"accept"}`))),
		},
		want: []string{
			`root=0:tools/call[t]#1 r1 req=1 key=a mrtr url "m" url=https://mcp.example.com:8443/x?y=1 host=mcp.example.com answered action=accept 2→3 100ms`,
			`root=0:tools/call[t]#1 r1 req=1 key=b mrtr url "m" url=http://user:pw@10.0.0.1/x host=10.0.0.1 answered action=decline 2→3 100ms obs=host-ip-literal,scheme-not-https,url-userinfo`,
			`root=0:tools/call[t]#1 r1 req=1 key=c mrtr url "m" url=https://xn--80ak6aa92e.com/ host=xn--80ak6aa92e.com answered action=cancel 2→3 100ms obs=host-idn`,
			`root=0:tools/call[t]#1 r1 req=1 key=d mrtr url "m" url=not a url host= answered action=accept 2→3 100ms obs=url-invalid,scheme-not-https`,
			`root=0:tools/call[t]#1 r1 req=1 key=e mrtr url "m" url=https://[::1]/ host=::1 answered action=accept 2→3 100ms obs=host-ip-literal`,
		},
	}, {
		name: "all three actions and an unrecognised one, each verbatim; a missing or non-string action is empty",
		steps: []step{
			c2s(0, call("1", "t", bothModes, "")),
			s2c(1, inputRequired("1", `{`+ask("a", form)+`,`+ask("b", form)+`,`+ask("c", form)+`,`+ask("d", form)+`,`+ask("e", form)+`,`+ask("f", form)+`}`, "s1")),
			c2s(50, call("2", "t", bothModes, answers("s1", `"a":{"action":"accept","content":{"name":"x"}}`, `"b":{"action":"decline"}`,
				`"c":{"action":"cancel"}`, `"d":{"action":"snooze"}`, `"e":{"content":{"name":"y"}}`, `"f":{"action":7}`))),
			s2c(1, done("2")),
		},
		want: []string{
			`root=0:tools/call[t]#1 r1 req=1 key=a mrtr form "Who?" fields=name:string*,age:integer answered action=accept 2→3 50ms`,
			`root=0:tools/call[t]#1 r1 req=1 key=b mrtr form "Who?" fields=name:string*,age:integer answered action=decline 2→3 50ms`,
			`root=0:tools/call[t]#1 r1 req=1 key=c mrtr form "Who?" fields=name:string*,age:integer answered action=cancel 2→3 50ms`,
			`root=0:tools/call[t]#1 r1 req=1 key=d mrtr form "Who?" fields=name:string*,age:integer answered action=snooze 2→3 50ms`,
			`root=0:tools/call[t]#1 r1 req=1 key=e mrtr form "Who?" fields=name:string*,age:integer answered 2→3 50ms`,
			`root=0:tools/call[t]#1 r1 req=1 key=f mrtr form "Who?" fields=name:string*,age:integer answered 2→3 50ms`,
		},
	}, {
		name: "no retry: pending, no action, no elapsed time",
		steps: []step{
			c2s(0, call("1", "t", bothModes, "")),
			s2c(1, inputRequired("1", `{`+ask("a", form)+`}`, "s1")),
			endRec(),
		},
		want: []string{`root=0:tools/call[t]#1 r1 req=1 key=a mrtr form "Who?" fields=name:string*,age:integer pending 2→`},
	}, {
		name: "a strong retry that omits a key leaves that question pending",
		steps: []step{
			c2s(0, call("1", "t", bothModes, "")),
			s2c(1, inputRequired("1", `{`+ask("a", form)+`,`+ask("b", form)+`}`, "s1")),
			c2s(5, call("2", "t", bothModes, answers("s1", `"a":{"action":"accept"}`))),
		},
		want: []string{
			`root=0:tools/call[t]#1 r1 req=1 key=a mrtr form "Who?" fields=name:string*,age:integer answered action=accept 2→3 5ms`,
			`root=0:tools/call[t]#1 r1 req=1 key=b mrtr form "Who?" fields=name:string*,age:integer pending 2→`,
		},
	}, {
		name: "several inputRequests: rows only for elicitation/create, not sampling or roots",
		steps: []step{
			c2s(0, call("1", "t", `{"elicitation":{},"sampling":{},"roots":{}}`, "")),
			s2c(1, inputRequired("1", `{"llm":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}},`+
				ask("q", `{"mode":"form","message":"Q","requestedSchema":{"type":"object","properties":{"b":{"type":"boolean"}}}}`)+
				`,"ws":{"method":"roots/list"},`+ask("a", `{"message":"A","requestedSchema":{"type":"object","properties":{}}}`)+`}`, "s1")),
			c2s(7, call("2", "t", `{"elicitation":{}}`, answers("s1", `"llm":{"role":"assistant","content":{"type":"text","text":"x"},"model":"m"}`,
				`"ws":{"roots":[]}`, `"q":{"action":"accept","content":{"b":true}}`, `"a":{"action":"decline"}`))),
			s2c(1, done("2")),
		},
		want: []string{
			`root=0:tools/call[t]#1 r1 req=1 key=a mrtr form "A" fields= answered action=decline 2→3 7ms`,
			`root=0:tools/call[t]#1 r1 req=1 key=q mrtr form "Q" fields=b:boolean answered action=accept 2→3 7ms`,
		},
	}, {
		name: "chained rounds: one row per round, all on the same root",
		steps: []step{
			c2s(0, call(`"c-41"`, "deploy", bothModes, "")),
			s2c(10, inputRequired(`"c-41"`, `{`+ask("approve", form)+`}`, "st1")),
			c2s(1000, call(`"c-42"`, "deploy", bothModes, answers("st1", `"approve":{"action":"accept"}`))),
			s2c(20, inputRequired(`"c-42"`, `{`+ask("login", `{"mode":"url","message":"Sign in","url":"https://d.example.net/c"}`)+`}`, "st2")),
			c2s(3000, call(`"c-43"`, "deploy", bothModes, answers("st2", `"login":{"action":"accept"}`))),
			s2c(30, inputRequired(`"c-43"`, `{`+ask("approve", form)+`}`, "st3")),
			c2s(40, call(`"c-44"`, "deploy", bothModes, answers("st3", `"approve":{"action":"cancel"}`))),
			s2c(30, done(`"c-44"`)),
		},
		want: []string{
			`root=0:tools/call[deploy]#"c-41" r1 req="c-41" key=approve mrtr form "Who?" fields=name:string*,age:integer answered action=accept 2→3 1000ms`,
			`root=0:tools/call[deploy]#"c-41" r2 req="c-42" key=login mrtr url "Sign in" url=https://d.example.net/c host=d.example.net answered action=accept 4→5 3000ms`,
			`root=0:tools/call[deploy]#"c-41" r3 req="c-43" key=approve mrtr form "Who?" fields=name:string*,age:integer answered action=cancel 6→7 40ms`,
		},
	}, {
		name: "the modes that request declared: none, form only, url only",
		steps: []step{
			c2s(0, call("1", "t", `{}`, "")),
			s2c(1, inputRequired("1", `{`+ask("a", form)+`}`, "")),
			c2s(0, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"u","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`),
			s2c(1, inputRequired("2", `{`+ask("a", form)+`}`, "")),
			c2s(0, call("3", "v", `{"elicitation":{}}`, "")),
			s2c(1, inputRequired("3", `{`+ask("a", `{"mode":"url","message":"m","url":"https://ok.example/"}`)+`,`+ask("b", form)+`}`, "")),
			c2s(0, call("4", "w", `{"elicitation":{"url":{}}}`, "")),
			s2c(1, inputRequired("4", `{`+ask("a", form)+`,`+ask("b", `{"mode":"telepathy","message":"m"}`)+`}`, "")),
		},
		want: []string{
			`root=0:tools/call[t]#1 r1 req=1 key=a mrtr form "Who?" fields=name:string*,age:integer pending 2→ obs=mode-undeclared`,
			`root=1:tools/call[u]#2 r1 req=2 key=a mrtr form "Who?" fields=name:string*,age:integer pending 4→ obs=mode-undeclared`,
			`root=2:tools/call[v]#3 r1 req=3 key=a mrtr url "m" url=https://ok.example/ host=ok.example pending 6→ obs=mode-undeclared`,
			`root=2:tools/call[v]#3 r1 req=3 key=b mrtr form "Who?" fields=name:string*,age:integer pending 6→`,
			`root=3:tools/call[w]#4 r1 req=4 key=a mrtr form "Who?" fields=name:string*,age:integer pending 8→ obs=mode-undeclared`,
			`root=3:tools/call[w]#4 r1 req=4 key=b mrtr telepathy "m" pending 8→ obs=mode-undeclared`,
		},
	}, {
		name: "a non-retryable request answered input_required: a row on that call, pending forever",
		steps: []step{
			c2s(0, `{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{`+capsMeta(bothModes)+`}}`),
			s2c(1, inputRequired("5", `{`+ask("x", form)+`}`, "st")),
		},
		want: []string{`root=0:tools/list[]#5 r1 req=5 key=x mrtr form "Who?" fields=name:string*,age:integer pending 2→`},
	}, {
		name: "no elicitation at all: no ledger",
		steps: []step{
			c2s(0, call("1", "t", bothModes, "")),
			s2c(1, inputRequired("1", `{"ws":{"method":"roots/list"}}`, "s")),
			c2s(1, call("2", "t", bothModes, answers("s", `"ws":{"roots":[]}`))),
			s2c(1, done("2")),
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			snap := load(t, tt.steps)
			checkConsistent(t, snap)
			checkLedgerConsistent(t, snap)
			if diff := cmp.Diff(tt.want, ledgerLines(snap.Ledger.Slice()), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("ledger (-want +got):\n%s", diff)
			}
			if tt.want == nil && snap.Ledger.Len() != 0 {
				t.Errorf("Ledger = %v, want nil", snap.Ledger.Slice())
			}
		})
	}
}

func TestLedgerLegacy(t *testing.T) {
	t.Parallel()
	init := req("0", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"1"}}`)
	initOK := res("0", `{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}`)
	tests := []struct {
		name  string
		steps []step
		want  []string
	}{{
		name: "form, url with elicitationId and completion, error answer, all attributed to the call they interrupted",
		steps: []step{
			c2s(0, init), s2c(1, initOK),
			c2s(10, req("1", "tools/call", `{"name":"book","arguments":{}}`)),
			s2c(10, req("0", "elicitation/create", `{"message":"How many?","requestedSchema":{"type":"object","properties":{"n":{"type":"integer","default":2}},"required":["n"]}}`)),
			c2s(1400, res("0", `{"action":"accept","content":{"n":4}}`)),
			s2c(30, req("1", "elicitation/create", `{"mode":"url","elicitationId":"el-42","url":"https://pay.example.org/d?e=el-42","message":"Pay"}`)),
			c2s(900, res("1", `{"action":"accept"}`)),
			s2c(2200, notif("notifications/elicitation/complete", `{"elicitationId":"el-42"}`)),
			s2c(5, notif("notifications/elicitation/complete", `{"elicitationId":"el-42"}`)),
			s2c(5, req("2", "elicitation/create", `{"message":"Again?","requestedSchema":{"type":"object","properties":{}}}`)),
			c2s(5, errRes("2", -32602, "nope")),
			s2c(20, res("1", `{"content":[]}`)),
		},
		want: []string{
			`root=1:tools/call[book]#1 r0 req=0 legacy form "How many?" fields=n:integer* answered action=accept 4→5 1400ms`,
			`root=1:tools/call[book]#1 r0 req=1 legacy url "Pay" url=https://pay.example.org/d?e=el-42 host=pay.example.org eid=el-42 answered action=accept 6→7 900ms completed+3.1s obs=mode-undeclared`,
			`root=1:tools/call[book]#1 r0 req=2 legacy form "Again?" fields= error 10→11 5ms`,
		},
	}, {
		name: "-32042: each data.elicitations entry is a required row; a later completion is recorded",
		steps: []step{
			c2s(0, init), s2c(1, initOK),
			c2s(10, req("31", "tools/call", `{"name":"vault","arguments":{}}`)),
			s2c(10, `{"jsonrpc":"2.0","id":31,"error":{"code":-32042,"message":"Vault authorization needed first","data":{"elicitations":[`+
				`{"mode":"url","elicitationId":"el-6c01","url":"https://vault.example.org/link?e=el-6c01","message":"Connect your vault account"},`+
				`{"mode":"url","elicitationId":"el-6c02","url":"http://vault.example.org/","message":"And this"}]}}}`),
			s2c(500, notif("notifications/elicitation/complete", `{"elicitationId":"el-6c01"}`)),
			s2c(1, notif("notifications/elicitation/complete", `{"elicitationId":"unknown"}`)),
		},
		want: []string{
			`root=1:tools/call[vault]#31 r0 req=31 legacy url "Connect your vault account" url=https://vault.example.org/link?e=el-6c01 host=vault.example.org eid=el-6c01 required 4→ completed+500ms obs=mode-undeclared`,
			`root=1:tools/call[vault]#31 r0 req=31 legacy url "And this" url=http://vault.example.org/ host=vault.example.org eid=el-6c02 required 4→ obs=scheme-not-https,mode-undeclared`,
		},
	}, {
		name: "unattributed and pending: two client calls in flight, no answer",
		steps: []step{
			c2s(0, init), s2c(1, initOK),
			c2s(1, req("1", "tools/call", `{"name":"a"}`)),
			c2s(1, req("2", "tools/call", `{"name":"b"}`)),
			s2c(1, req("9", "elicitation/create", `{"message":"Which?"}`)),
		},
		want: []string{`root=- r0 req=9 legacy form "Which?" fields= pending 5→`},
	}, {
		name: "no initialize in the capture: the declaration is unknown, nothing is observed",
		steps: []step{
			c2s(0, req("1", "tools/call", `{"name":"a"}`)),
			s2c(1, req("1", "elicitation/create", `{"mode":"url","message":"m","url":"https://x.example/"}`)),
			c2s(1, res("1", `{"action":"decline"}`)),
		},
		want: []string{`root=0:tools/call[a]#1 r0 req=1 legacy url "m" url=https://x.example/ host=x.example answered action=decline 2→3 1ms`},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			snap := load(t, tt.steps)
			checkConsistent(t, snap)
			checkLedgerConsistent(t, snap)
			if diff := cmp.Diff(tt.want, ledgerLines(snap.Ledger.Slice())); diff != "" {
				t.Errorf("ledger (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLedgerFixtures checks the shared fixtures against the rows their
// README expects.
func TestLedgerFixtures(t *testing.T) {
	t.Parallel()
	seed := load(t, transcript(t, "testdata/elicit-seed.transcript.jsonl"))
	checkLedgerConsistent(t, seed)
	id := wire.IntID
	want := []LedgerRow{{
		Root: LedgerRoot{Call: 0, ID: id(1), Method: "tools/call", Target: "create_account"}, Round: 1, RequestID: id(1),
		Key: "profile", Era: LedgerMRTR, Mode: "form", Message: "Choose a username and give a contact email",
		Fields: []LedgerField{{Name: "username", Type: "string", Required: true}, {Name: "email", Type: "string", Required: true}, {Name: "newsletter", Type: "boolean", Required: false}},
		Action: "accept", Status: LedgerAnswered, ElapsedMS: 920, AskedSeq: 2, AnsweredSeq: 3, AskedLine: 3, AnsweredLine: 4,
		Call: 0, Operation: 0, WaitMS: 920, ToolMS: 50,
	}, {
		Root: LedgerRoot{Call: 2, ID: id(3), Method: "tools/call", Target: "sync_calendar"}, Round: 1, RequestID: id(3),
		Key: "auth", Era: LedgerMRTR, Mode: "url", Message: "Please provide your API key to continue.",
		URL: "https://mcp.example.com/ui/set_api_key?flow=abc123", Host: "mcp.example.com",
		Action: "accept", Status: LedgerAnswered, ElapsedMS: 2840, AskedSeq: 6, AnsweredSeq: 7, AskedLine: 7, AnsweredLine: 8,
		Call: 2, Operation: 1, WaitMS: 2840, ToolMS: 50,
	}, {
		Root: LedgerRoot{Call: 4, ID: id(5), Method: "tools/call", Target: "login_legacy"}, Round: 1, RequestID: id(5),
		Key: "creds", Era: LedgerMRTR, Mode: "form", Message: "Enter your admin password to continue",
		Fields: []LedgerField{{Name: "password", Type: "string", Required: true}},
		Action: "decline", Status: LedgerAnswered, ElapsedMS: 270, AskedSeq: 10, AnsweredSeq: 11, AskedLine: 11, AnsweredLine: 12,
		Call: 4, Operation: 2, WaitMS: 270, ToolMS: 40,
	}}
	ignoreTimes := cmpopts.IgnoreFields(LedgerRow{}, "AskedAt", "AnsweredAt", "CompletedAt")
	approx := cmpopts.EquateApprox(0, 1e-9)
	if diff := cmp.Diff(want, seed.Ledger.Slice(), ignoreTimes, approx, cmp.AllowUnexported(wire.ID{})); diff != "" {
		t.Errorf("elicit-seed ledger (-want +got):\n%s", diff)
	}
	for _, r := range seed.Ledger.Slice() {
		if got := r.AnsweredAt.Sub(r.AskedAt); ms(got) != r.ElapsedMS {
			t.Errorf("row %s: elapsed %g ms, times %v apart", r.Key, r.ElapsedMS, got)
		}
	}

	legacy := load(t, transcript(t, "testdata/legacy-2025-11-25.transcript.jsonl"))
	checkLedgerConsistent(t, legacy)
	wantLegacy := []string{
		`root=1:tools/call[book_table]#1 r0 req=0 legacy form "How many guests, and at what time?" fields=guests:integer*,time:enum(18:00|19:30|21:00) answered action=accept 5→6 1400ms`,
		`root=1:tools/call[book_table]#1 r0 req=1 legacy url "A deposit is required to hold the table" url=https://pay.example.org/deposit?e=el-42 host=pay.example.org eid=el-42 answered action=accept 7→8 900ms completed+3.1s`,
	}
	if diff := cmp.Diff(wantLegacy, ledgerLines(legacy.Ledger.Slice())); diff != "" {
		t.Errorf("legacy ledger (-want +got):\n%s", diff)
	}
}

// TestLedgerPrivacy: a row has nowhere to put an answer's content, and no
// string field of any row holds it.
func TestLedgerPrivacy(t *testing.T) {
	t.Parallel()
	const canary = "CANARY-7f3a-secret"
	snap := load(t, []step{
		c2s(0, call("1", "t", bothModes, "")),
		s2c(1, inputRequired("1", `{`+ask("a", `{"message":"pw","requestedSchema":{"type":"object","properties":{"pw":{"type":"string"}}}}`)+`}`, "s")),
		c2s(1, call("2", "t", bothModes, answers("s", `"a":{"action":"accept","content":{"pw":"`+canary+`","`+canary+`":"x"}}`))),
		s2c(1, done("2")),
		c2s(1, req("3", "tools/call", `{"name":"b"}`)),
		s2c(1, req("0", "elicitation/create", `{"message":"m"}`)),
		c2s(1, res("0", `{"action":"accept","content":{"x":"`+canary+`"}}`)),
	})
	if len(snap.Ledger.Slice()) != 2 {
		t.Fatalf("%d rows, want 2", len(snap.Ledger.Slice()))
	}
	if got := fmt.Sprintf("%+v", snap.Ledger.Slice()); strings.Contains(got, canary) {
		t.Errorf("the ledger holds the answer's content: %s", got)
	}
}

// TestLedgerSnapshotImmutable: a snapshot taken while a question is
// pending keeps it pending after the answer is ingested.
func TestLedgerSnapshotImmutable(t *testing.T) {
	t.Parallel()
	data := captureOf(t, []step{
		c2s(0, call("1", "t", bothModes, "")),
		s2c(1, inputRequired("1", `{`+ask("a", `{"message":"m"}`)+`}`, "s")),
		c2s(1, call("2", "t", bothModes, answers("s", `"a":{"action":"accept"}`))),
	})
	r, err := capture.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	s := New(nil)
	s.Ingest(r.Header())
	var snaps []*Snapshot
	for {
		var rec capture.Record
		if r.Next(&rec) != nil {
			break
		}
		s.Ingest(&rec)
		snaps = append(snaps, s.Snapshot())
	}
	var got []string
	for _, sn := range snaps {
		got = append(got, strings.Join(ledgerLines(sn.Ledger.Slice()), ";"))
	}
	want := []string{
		"",
		`root=0:tools/call[t]#1 r1 req=1 key=a mrtr form "m" fields= pending 2→`,
		`root=0:tools/call[t]#1 r1 req=1 key=a mrtr form "m" fields= answered action=accept 2→3 1ms`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ledger per snapshot (-want +got):\n%s", diff)
	}
}

func TestCountLedger(t *testing.T) {
	t.Parallel()
	rows := []LedgerRow{
		{Mode: "url", Action: "accept", Status: LedgerAnswered},
		{Mode: "form", Action: "decline", Status: LedgerAnswered},
		{Mode: "form", Status: LedgerPending},
		{Mode: "form", Action: "accept", Status: LedgerAnswered},
	}
	want := LedgerCounts{
		Modes:    []Count{{"form", 3}, {"url", 1}},
		Actions:  []Count{{"accept", 2}, {"decline", 1}},
		Statuses: []Count{{"answered", 3}, {"pending", 1}},
	}
	if diff := cmp.Diff(want, CountLedger(rows)); diff != "" {
		t.Errorf("CountLedger (-want +got):\n%s", diff)
	}
}

// checkLedgerConsistent asserts the invariants every ledger keeps.
func checkLedgerConsistent(t testing.TB, snap *Snapshot) {
	t.Helper()
	calls := snap.Calls.Slice()
	for i, r := range snap.Ledger.Slice() {
		if i > 0 && r.AskedSeq < snap.Ledger.Slice()[i-1].AskedSeq {
			t.Errorf("row %d asked at seq %d, before row %d", i, r.AskedSeq, i-1)
		}
		answered := r.Status == LedgerAnswered || r.Status == LedgerError
		if answered != (r.AnsweredSeq != 0) || (!answered && (r.Action != "" || r.ElapsedMS != 0 || !r.AnsweredAt.IsZero())) {
			t.Errorf("row %d: status %s with answer %q at seq %d after %g ms", i, r.Status, r.Action, r.AnsweredSeq, r.ElapsedMS)
		}
		if (r.Mode == "form") != (r.Fields != nil) || (r.Mode != "url" && (r.URL != "" || r.Host != "" || r.ElicitationID != "")) {
			t.Errorf("row %d: mode %s with fields %v, url %q", i, r.Mode, r.Fields, r.URL)
		}
		if (r.Era == LedgerMRTR) != (r.Round > 0) {
			t.Errorf("row %d: era %s, round %d", i, r.Era, r.Round)
		}
		if r.Call < 0 || r.Call >= len(calls) || calls[r.Call].RequestSeq > r.AskedSeq {
			t.Errorf("row %d: call %d does not carry the question", i, r.Call)
		}
		if c := r.Root.Call; c >= 0 && (c >= len(calls) || calls[c].Dir != capture.C2S || calls[c].ID != r.Root.ID) {
			t.Errorf("row %d: root %+v is not a client call", i, r.Root)
		}
	}
}
