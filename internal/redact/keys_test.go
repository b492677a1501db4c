package redact_test

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
)

// secretNames are names the Secrets preset must match wherever a name
// appears, and plainNames names it must leave alone (tool arguments are
// what a capture is for).
var (
	secretNames = []string{
		"GITHUB_TOKEN", "github_token", "OPENAI_API_KEY", "openai-api-key",
		"aws_secret_access_key", "AWS_SECRET_ACCESS_KEY", "access-token", "x_accessToken",
		"private-key", "GITHUB_DEPLOY_KEY", "db_password", "DB-PASSWORD", "client_secret",
		"SLACK_SIGNING_SECRET", "registration_access_token", "initial_access_token",
		"software_statement", "code_verifier", "client_assertion", "oauth2_Token",
		"token", "Password", "apiKey", "x-api-key",
		"github_to\u212aen", // the Kelvin sign folds to k
	}
	plainNames = []string{
		"max_tokens", "token_count", "inputTokens", "outputTokens", "keyboard", "monkey",
		"key", "keys", "hotkey", "tokenizer", "secretary", "passwords_allowed", "code",
		"assertion", "error_code", "tokens", "passwordless", "turnkey", "Keyword",
		"progressToken", "nextCursor", "githubToken", "sortKey",
	}
)

// TestSecretNames: one matcher judges a name as a JSON member (tool
// arguments, an env object, nested, spelled with escapes), in a "name":
// value pair of text, in a name=value text form, as a flag, a variable and
// a header: suffixes _KEY, _TOKEN, _SECRET and the others, - read as _,
// and not camelCase humps (progressToken is the protocol's own).
func TestSecretNames(t *testing.T) {
	t.Parallel()
	r, err := redact.New(&redact.Options{Secrets: true})
	if err != nil {
		t.Fatal(err)
	}
	const canary = "CANARY-4f1e"
	forms := map[string]func(name string) (capture.Type, string){
		"argument": func(n string) (capture.Type, string) {
			return capture.TypeFrame, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"q":1,` + quote(n) + `:"` + canary + `"}}}`
		},
		"env": func(n string) (capture.Type, string) {
			return capture.TypeFrame, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run","arguments":{"cmd":"x","env":{"PATH":"/bin",` + quote(n) + `:"` + canary + `"}}}}`
		},
		"nested": func(n string) (capture.Type, string) {
			return capture.TypeFrame, `{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"a":[{"b":{` + quote(n) + `:{"v":"` + canary + `"}}}]}}}`
		},
		"escaped": func(n string) (capture.Type, string) {
			return capture.TypeFrame, `{"jsonrpc":"2.0","id":1,"params":{"x":1,"` + escapeFirst(n) + `":"` + canary + `"}}`
		},
		"quoted pair in stderr": func(n string) (capture.Type, string) {
			return capture.TypeStderr, `config {` + quote(n) + `: "` + canary + `"}`
		},
		"torn frame": func(n string) (capture.Type, string) {
			return capture.TypeFrame, `{"jsonrpc":"2.0","params":{` + quote(n) + `:"` + canary + `"`
		},
		"name=value": func(n string) (capture.Type, string) {
			return capture.TypeStderr, "boot " + n + "=" + canary + " ok"
		},
	}
	for form, make := range forms {
		for _, name := range secretNames {
			typ, line := make(name)
			if got, _ := r.Line(typ, capture.C2S, []byte(line)); strings.Contains(string(got), canary) {
				t.Errorf("%s %s: the value is kept: %s", form, name, got)
			}
			if typ == capture.TypeFrame && !strings.HasSuffix(line, `"`) {
				checkFilter(t, r, form+" "+name, line)
			}
		}
		for _, name := range plainNames {
			typ, line := make(name)
			if got, changed := r.Line(typ, capture.C2S, []byte(line)); changed {
				t.Errorf("%s %s: redacted: %s", form, name, got)
			}
		}
	}
	for _, name := range secretNames {
		if strings.ContainsRune(name, '\u212a') {
			continue // a flag or a variable is ASCII
		}
		argv := []string{"srv", "--" + name, canary, name + "=" + canary}
		if got, _ := r.Argv(argv); strings.Contains(strings.Join(got, " "), canary) {
			t.Errorf("argv %s: %q", name, got)
		}
		rec := capture.Record{Type: capture.TypeFrame, Msg: []byte(`{}`), HTTP: &capture.HTTP{Headers: map[string]string{"Mcp-Param-" + name: canary}}}
		if r.Record(&rec); strings.Contains(rec.HTTP.Headers["Mcp-Param-"+name], canary) {
			t.Errorf("header Mcp-Param-%s kept its value", name)
		}
	}
	for _, name := range plainNames {
		argv := []string{"srv", "--" + name, "v", name + "=v"}
		if got, changed := r.Argv(argv); changed {
			t.Errorf("argv %s: %q", name, got)
		}
	}
}

// checkFilter fails when the capture writer's name filter lets a JSON
// line through that Line changes.
func checkFilter(t *testing.T, r redact.Redactor, what, line string) {
	t.Helper()
	f := r.Names(capture.C2S)
	if f == nil {
		t.Fatalf("%s: no name filter", what)
	}
	done, err := capture.NewWriter(io.Discard).WriteLineUnselected(capture.TypeFrame, 1, time.Time{}, capture.C2S, []byte(line), false, f)
	if err != nil {
		t.Fatal(err)
	}
	if done {
		t.Errorf("%s: the name filter let the line through unredacted", what)
	}
}

// TestUserKeysAreWords: a --redact-key name matches as the last word of a
// longer name too, as it always did in text forms, and nothing else.
func TestUserKeysAreWords(t *testing.T) {
	t.Parallel()
	r, err := redact.New(&redact.Options{Keys: []string{"ssn", "Card-Number"}})
	if err != nil {
		t.Fatal(err)
	}
	in := `{"ssn":1,"user_ssn":2,"userSsn":3,"lessn":4,"card_number":5,"backup-card-number":6,"card_numbers":7,"key":8,"api_key":9}`
	want := `{"ssn":"[REDACTED]","user_ssn":"[REDACTED]","userSsn":3,"lessn":4,"card_number":"[REDACTED]","backup-card-number":"[REDACTED]","card_numbers":7,"key":8,"api_key":9}`
	if got, _ := r.Line(capture.TypeFrame, capture.C2S, []byte(in)); string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// quote returns name as a JSON string.
func quote(name string) string { return `"` + name + `"` }

// escapeFirst spells the first byte of an ASCII name as a \u escape.
func escapeFirst(name string) string {
	if name == "" || name[0] >= 0x80 {
		return name
	}
	return `\u00` + strings.ToLower(hex2(name[0])) + name[1:]
}

func hex2(c byte) string {
	const digits = "0123456789ABCDEF"
	return string([]byte{digits[c>>4], digits[c&15]})
}
