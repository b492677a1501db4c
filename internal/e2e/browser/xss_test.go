package browser_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/testbin"
	"github.com/mcptrail/mcptrail/internal/transcript"
)

// The canaries of the hostile report: each sets window.__xss when a
// browser runs it.
const (
	imgCanary    = `<img src=x onerror="window.__xss='img'">`
	scriptCanary = `</script><script>window.__xss='script'</script>`
	urlCanary    = `javascript:window.__xss='url'`
	sepCanary    = "line\u2028sep\u2029para\u202eevil"
)

// hostileTranscript writes a 2026-07-28 conversation whose tool name, tool
// description, elicitation messages, url and result body hold the canaries,
// and returns its path.
func hostileTranscript(t *testing.T) string {
	t.Helper()
	meta := map[string]any{
		"io.modelcontextprotocol/protocolVersion": "2026-07-28",
		"io.modelcontextprotocol/clientInfo":      map[string]any{"name": "xss-client", "version": "1.0.0"},
		"io.modelcontextprotocol/clientCapabilities": map[string]any{
			"elicitation": map[string]any{"form": map[string]any{}, "url": map[string]any{}}},
	}
	call := func(id int, extra map[string]any) map[string]any {
		params := map[string]any{"name": imgCanary, "arguments": map[string]any{"q": scriptCanary}, "_meta": meta}
		for k, v := range extra {
			params[k] = v
		}
		return map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}
	}
	frames := []struct {
		dir string
		msg map[string]any
	}{
		{"c2s", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": map[string]any{"_meta": meta}}},
		{"s2c", map[string]any{"jsonrpc": "2.0", "id": 1, "result": map[string]any{"tools": []any{map[string]any{
			"name": imgCanary, "description": scriptCanary + sepCanary,
			"inputSchema": map[string]any{"type": "object"}}}}}},
		{"c2s", call(2, nil)},
		{"s2c", map[string]any{"jsonrpc": "2.0", "id": 2, "result": map[string]any{
			"resultType": "input_required", "requestState": "s1",
			"inputRequests": map[string]any{
				"form": map[string]any{"method": "elicitation/create", "params": map[string]any{
					"mode": "form", "message": imgCanary + scriptCanary + sepCanary,
					"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{
						imgCanary: map[string]any{"type": "string"}}}}},
				"link": map[string]any{"method": "elicitation/create", "params": map[string]any{
					"mode": "url", "message": "open " + urlCanary, "url": urlCanary, "elicitationId": "e1"}},
			}}}},
		{"c2s", call(3, map[string]any{"requestState": "s1", "inputResponses": map[string]any{
			"form": map[string]any{"action": "decline"}, "link": map[string]any{"action": "accept"}}})},
		{"s2c", map[string]any{"jsonrpc": "2.0", "id": 3, "result": map[string]any{
			"resultType": "complete", "isError": true,
			"content": []any{map[string]any{"type": "text", "text": scriptCanary + imgCanary + sepCanary}}}}},
	}
	var b strings.Builder
	for _, f := range frames {
		raw, err := json.Marshal(f.msg)
		if err != nil {
			t.Fatal(err)
		}
		line, err := json.Marshal(map[string]any{"dir": f.dir, "after_ms": 0, "raw": string(raw)})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "xss.transcript.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReportHostile plays a conversation full of script injections through
// the real proxy and opens its report: no canary ever runs (window.__xss
// stays unset through loading, filtering and expanding every call), every
// canary is shown as the literal text it is, and no javascript: URL becomes
// a link.
func TestReportHostile(t *testing.T) {
	script := hostileTranscript(t)
	tr, err := transcript.Load(script)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	capPath := filepath.Join(dir, "xss.jsonl")
	env := []string{"MCPTRAIL_HOME=" + dir, "NO_COLOR=1"}
	testbin.PlayThroughProxy(t, bins.mcptrail, tr, script, env, "--capture", capPath)
	report := filepath.Join(dir, "xss.html")
	mcptrail(t, env, "export", "-T", "html", "-o", report, capPath)

	p := openPage(t)
	p.load(t, report)
	checkInert(t, p, "on load")
	checkLedger(t, "on load", shownLedger(t, p), exportLedger(t, env, capPath))

	p.filter(t, "elicit:decline")
	checkInert(t, p, "after filtering")
	p.filter(t, "")
	p.run(t, "expanding every call", expandAll())
	checkInert(t, p, "after expanding every call")

	text := eval[string](t, p, `document.body.innerText`)
	for _, c := range []string{imgCanary, scriptCanary, urlCanary} {
		if !strings.Contains(text, c) {
			t.Errorf("the report does not show %q literally", c)
		}
	}
	p.screenshot(t, "hostile-report")
	if errs := p.problems(); len(errs) > 0 {
		t.Errorf("the report reported errors: %q", errs)
	}
}

// checkInert fails t when a canary ran or became markup: window.__xss is
// set, an <img src=x> or a script mentioning __xss is in the document, or
// a link goes to a javascript: URL.
func checkInert(t *testing.T, p *page, when string) {
	t.Helper()
	type inert struct {
		XSS     any `json:"xss"`
		Imgs    int `json:"imgs"`
		Scripts int `json:"scripts"`
		JSLinks int `json:"jsLinks"`
	}
	got := eval[inert](t, p, `({
		xss: window.__xss === undefined ? null : String(window.__xss),
		imgs: document.querySelectorAll('img[src="x"]').length,
		scripts: [...document.scripts].filter(s => s.type !== "application/json" && s.text.includes("__xss")).length,
		jsLinks: [...document.querySelectorAll("[href],[src],[action],[formaction]")]
			.filter(e => /^\s*javascript:/i.test(e.getAttribute("href") || e.getAttribute("src") || e.getAttribute("action") || e.getAttribute("formaction") || "")).length,
	})`)
	if got.XSS != nil || got.Imgs > 0 || got.Scripts > 0 || got.JSLinks > 0 {
		t.Errorf("%s: a canary is live: window.__xss=%v, %d <img src=x>, %d scripts naming __xss, %d javascript: links",
			when, got.XSS, got.Imgs, got.Scripts, got.JSLinks)
	}
}
