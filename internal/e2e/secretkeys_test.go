package e2e_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// secretMembers are member names --redact-secrets must scrub however they
// are spelled; keptMembers are tool arguments it must leave alone.
func secretMembers() []string {
	return []string{"GITHUB_TOKEN", "github_token", "OPENAI_API_KEY", "aws_secret_access_key", "access-token", "private-key"}
}

func keptMembers() []string {
	return []string{"max_tokens", "token_count", "inputTokens", "progressToken", "keyboard", "monkey"}
}

// secretObject is a JSON object with each secret member holding
// canary+its index, and each kept member holding "kept"+its index.
func secretObject(canary string) string {
	var m []string
	for i, n := range secretMembers() {
		m = append(m, `"`+n+`":"`+canary+string(rune('a'+i))+`"`)
	}
	for i, n := range keptMembers() {
		m = append(m, `"`+n+`":"kept`+string(rune('a'+i))+`"`)
	}
	return "{" + strings.Join(m, ",") + "}"
}

// TestRedactSecretMembers: through the real stdio proxy with
// --redact-secrets, secrets under GITHUB_TOKEN, github_token,
// OPENAI_API_KEY, aws_secret_access_key, access-token and private-key, as
// tool arguments, in an env object, nested in a result and in a torn
// frame, never reach the capture or a view, while max_tokens,
// token_count, inputTokens, progressToken, keyboard and monkey keep their
// values; the
// text forms (a stderr line, a text frame, the command line) still lose
// theirs, and both peers get the bytes the other sent.
func TestRedactSecretMembers(t *testing.T) {
	t.Parallel()
	c := newCanary(t)
	obj := secretObject(c)
	c2s := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run","arguments":` + obj + `}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"spawn","arguments":{"cmd":"node","env":` + obj + `}}}` + "\n" +
		"text GITHUB_TOKEN=" + c + "t1 aws_secret_access_key: " + c + "t2\n" +
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{"GITHUB_TOKEN":"` + c + `t3"`
	s2c := `{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"deep":[{"config":` + obj + `}]}}}` + "\n"
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	send, got := filepath.Join(dir, "send"), filepath.Join(dir, "received")
	if err := os.WriteFile(send, []byte(s2c), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bins.mcptrail, "--redact-secrets", "--", "env", "OPENAI_API_KEY="+c+"e1", bins.fastserver,
		"-record", got, "-send", send, "-stderr", "boot github_token="+c+"e2 --private-key "+c+"e3")
	cmd.Env, cmd.Dir = append(os.Environ(), "MCPTRAIL_HOME="+home), dir
	cmd.Stdin = strings.NewReader(c2s)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcptrail: %v\nstderr: %s", err, stderr.Bytes())
	}
	if stdout.String() != s2c {
		t.Errorf("client received: %s", firstDiff(stdout.Bytes(), []byte(s2c)))
	}
	received, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	if string(received) != c2s {
		t.Errorf("server received: %s", firstDiff(received, []byte(c2s)))
	}
	checkStateDir(t, home, c)
	checkViews(t, home, c)
	export := mcptrailOut(t, []string{"MCPTRAIL_HOME=" + home}, "export", "-T", "json")
	for i, n := range keptMembers() {
		if want := `"` + n + `":"kept` + string(rune('a'+i)) + `"`; !strings.Contains(export, want) {
			t.Errorf("the export lost the tool argument %s", want)
		}
	}
	testbin.NoCanary(t, c, "mcptrail's stderr, but the server's line", strings.ReplaceAll(stderr.String(), "boot github_token="+c+"e2 --private-key "+c+"e3", ""))
}
