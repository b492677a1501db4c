package browser_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHarnessSeesProblems checks the checks: a page that logs an error,
// throws, and loads an image from the network is caught doing each.
func TestHarnessSeesProblems(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.html")
	const img = "http://127.0.0.1:9/pixel.png"
	html := `<!doctype html><title>bad</title><table id="calls"></table><img src="` + img + `">
<script>console.error("harness-error"); window.__xss = "set";
document.querySelector("#calls").dataset.total = "0"; throw new Error("harness-throw");</script>`
	if err := os.WriteFile(path, []byte(html), 0o600); err != nil {
		t.Fatal(err)
	}
	p := openPage(t)
	p.load(t, path)
	got := strings.Join(p.problems(), "\n")
	for _, want := range []string{"harness-error", "harness-throw"} {
		if !strings.Contains(got, want) {
			t.Errorf("the page's %s was not seen; problems:\n%s", want, got)
		}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	if reqs := p.foreignRequests("file://" + abs); !slices.Contains(reqs, img) {
		t.Errorf("the image request was not seen: %q", reqs)
	}
	if v := eval[string](t, p, `String(window.__xss)`); v != "set" {
		t.Errorf("window.__xss reads %q from the page's script", v)
	}
}
