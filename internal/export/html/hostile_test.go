package htmlexport

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// dataBlocks returns the text of each <script type="application/json">
// block of page, by id, and the frames-data block inflated.
func dataBlocks(t *testing.T, page string) map[string]string {
	t.Helper()
	out := map[string]string{}
	re := regexp.MustCompile(`(?s)<script type="application/json" id="([a-z-]+)">(.*?)</script>`)
	for _, m := range re.FindAllStringSubmatch(page, -1) {
		out[m[1]] = m[2]
	}
	// The frames travel gzipped in base64 (writeFrames): inflated, they
	// are the JSON the page's script reads.
	fre := regexp.MustCompile(`(?s)<script type="application/octet-stream" id="frames-data" data-encoding="gzip base64">(.*?)</script>`)
	if m := fre.FindStringSubmatch(page); m != nil {
		z, err := base64.StdEncoding.DecodeString(m[1])
		if err != nil {
			t.Fatalf("frames-data is not base64: %v", err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(z))
		if err != nil {
			t.Fatalf("frames-data is not gzip: %v", err)
		}
		b, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("frames-data does not inflate: %v", err)
		}
		out["frames-data"] = string(b)
	}
	return out
}

// TestHostileCapture renders a session whose tool names, messages, ids,
// label, url-mode urls, form fields and bodies hold markup, javascript:
// urls, U+2028/U+2029 and bidi overrides, and checks that the page holds
// none of it in an executable or reordering form, while the data blocks
// still decode to the text as sent.
func TestHostileCapture(t *testing.T) {
	t.Parallel()
	page, snap := render(t, transcriptCapture(t, "testdata/hostile.transcript.jsonl", "</script><img src=x onerror=window.__xss=20>"))
	if snap.Ledger.Len() != 2 || snap.Calls.Len() != 3 {
		t.Fatalf("the fixture gave %d ledger rows and %d calls, want 2 and 3", snap.Ledger.Len(), snap.Calls.Len())
	}
	lower := strings.ToLower(page)
	// Exactly the page's own three script elements: the two data blocks
	// and the script; nothing from the capture opened or closed one.
	if n := strings.Count(lower, "<script"); n != 3 {
		t.Errorf("the page has %d <script tags, want 3", n)
	}
	if n := strings.Count(lower, "</script"); n != 3 {
		t.Errorf("the page has %d </script tags, want 3", n)
	}
	for _, bad := range []string{"<img", "<svg", "<a href=\"javascript", "<!--"} {
		if i := strings.Index(lower, bad); i >= 0 {
			t.Errorf("the page holds %q: …%s…", bad, page[max(0, i-80):min(len(page), i+80)])
		}
	}
	if m := regexp.MustCompile(`(?i)(href|src|action|formaction)\s*=\s*["']?\s*javascript:`).FindString(page); m != "" {
		t.Errorf("the page holds a javascript: url in an attribute: %s", m)
	}
	onAttr := regexp.MustCompile(`(?i)\son[a-z]+\s*=`)
	for _, tag := range regexp.MustCompile(`<[a-zA-Z][^>]*>`).FindAllString(stripBlocks(page), -1) {
		if onAttr.MatchString(tag) {
			t.Errorf("the markup holds a tag with an event handler: %s", tag)
		}
	}
	for i, r := range page {
		if unsafeRune(r) {
			t.Errorf("the page holds %U raw at byte %d", r, i)
		}
	}
	// The text is shown literally: escaped in the markup...
	for _, want := range []string{
		`&lt;img src=x onerror=&#34;window.__xss=4&#34;&gt;Sign in \u202eevil`, // the url-mode question, bidi visible
		`javascript:window.__xss=5//https://example.com/`,                      // the url, as text
		`&lt;img src=x onerror=window.__xss=20&gt;`,                            // the label
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not show %q literally", want)
		}
	}
	// ...and as data, whose blocks decode to the values as sent.
	blocks := dataBlocks(t, page)
	var data struct {
		Calls [][]jsontext.Value `json:"calls"`
		Names []string           `json:"names"`
	}
	if err := json.Unmarshal([]byte(blocks["report-data"]), &data); err != nil {
		t.Fatalf("report-data does not decode: %v", err)
	}
	var n int
	if err := json.Unmarshal(data.Calls[0][2], &n); err != nil {
		t.Fatal(err)
	}
	tool := data.Names[n]
	if want := "</script><img src=x onerror=\"window.__xss=1\">\u202egnp.exe\u2028\u2029"; tool != want {
		t.Errorf("the first call's target decodes to %q, want %q", tool, want)
	}
	var frames [][]jsontext.Value
	if err := json.Unmarshal([]byte(blocks["frames-data"]), &frames); err != nil {
		t.Fatalf("frames-data does not decode: %v", err)
	}
	var body string
	if err := json.Unmarshal(frames[0][2], &body); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body, "</script><script>window.__xss=2</script><!--") {
		t.Errorf("the first frame's body lost its text: %q", body)
	}
}

// stripBlocks returns page without the contents of its data blocks and
// script, so that what is left is markup.
func stripBlocks(page string) string {
	return regexp.MustCompile(`(?s)<script[^>]*>.*?</script>`).ReplaceAllString(page, "")
}

// TestScriptBuildsNoMarkup checks that the page's script never turns a
// string into markup or code: no innerHTML, no document.write, no eval.
func TestScriptBuildsNoMarkup(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"assets/filter.js", "assets/report.js"} {
		js, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		noMarkup(t, name, string(js))
	}
}

// noMarkup fails t when the script js of file name uses an API that
// turns a string into markup, code or a link.
func noMarkup(t *testing.T, name, js string) {
	t.Helper()
	for _, bad := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "Function(", "setAttribute(\"href", ".href", "srcdoc"} {
		if strings.Contains(js, bad) {
			t.Errorf("%s uses %s", name, bad)
		}
	}
}
