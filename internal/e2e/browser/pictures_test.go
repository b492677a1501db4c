package browser_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcptrail/mcptrail/internal/golden"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// picturesDir is where the README's pictures live, from this package.
const picturesDir = "../../../docs/img"

// TestDocPictures makes the README's two pictures from a real demo
// session: the terminal UI with the elicitation ledger open (the real
// binary in tmux, its screen drawn in the browser) and the HTML report
// above the fold. Beside each PNG, a .txt holds what the picture shows as
// text with the run's times and durations masked; the test fails when
// that text differs from today's, so a picture cannot go stale. With
// -update it rewrites both.
func TestDocPictures(t *testing.T) {
	home := t.TempDir()
	env := []string{"MCPTRAIL_HOME=" + home}
	mcptrail(t, append(env, "NO_COLOR=1"), "demo")
	p := openPage(t)

	// The terminal UI: `mcptrail open` on the demo session, l for the
	// ledger.
	term := testbin.StartTerm(t, 120, 24, env, bins.mcptrail, "open")
	term.WaitFor(`tools/call`, 30*time.Second)
	term.Keys("l")
	term.WaitFor(`(?i)elicitation ledger`, 10*time.Second)
	time.Sleep(300 * time.Millisecond) // let the overlay finish drawing
	screen, plain := term.ScreenANSI(), term.Screen()
	page := filepath.Join(t.TempDir(), "tui.html")
	if err := os.WriteFile(page, []byte(terminalPage(screen)), 0o600); err != nil {
		t.Fatal(err)
	}
	p.run(t, "opening the drawn terminal", chromedp.Navigate("file://"+page), chromedp.WaitReady(chromedp.CSS("pre")))
	tuiPNG := elementShot(t, p, "pre")
	picture(t, "tui-ledger", tuiPNG, maskRun(plain))

	// The HTML report, as a reader first sees it.
	report := filepath.Join(t.TempDir(), "demo.html")
	mcptrail(t, env, "export", "-T", "html", "-o", report)
	p.load(t, report)
	shown := eval[string](t, p, `document.body.innerText`)
	style := eval[string](t, p, `[...document.querySelectorAll("style")].map(s => s.textContent).join("\n")`)
	sum := sha256.Sum256([]byte(style))
	htmlPNG := viewportShot(t, p)
	picture(t, "html-report", htmlPNG, "style sha256 "+hex.EncodeToString(sum[:8])+"\n"+maskRun(shown))
	if errs := p.problems(); len(errs) > 0 {
		t.Errorf("the pages reported errors: %q", errs)
	}
}

// picture writes name.png and name.txt under -update; otherwise it fails
// when name.txt differs from text, or either file is missing.
func picture(t *testing.T, name string, png []byte, text string) {
	t.Helper()
	pngPath := filepath.Join(picturesDir, name+".png")
	txtPath := filepath.Join(picturesDir, name+".txt")
	if golden.Update() {
		if err := os.MkdirAll(picturesDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(pngPath, png, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(txtPath, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if len(png) < 1000 {
		t.Errorf("the %s picture is %d bytes: nothing was drawn", name, len(png))
	}
	const how = "go test ./internal/e2e/browser -run TestDocPictures -update"
	if _, err := os.Stat(pngPath); err != nil {
		t.Errorf("docs/img/%s.png is missing (%v): run %s", name, err, how)
	}
	want, err := os.ReadFile(txtPath)
	if err != nil {
		t.Fatalf("docs/img/%s.txt is missing (%v): run %s", name, err, how)
	}
	if got := text; string(want) != got {
		t.Errorf("docs/img/%s.png is stale: what it shows changed; run %s\n%s", name, how, lineDiff(string(want), got))
	}
}

// lineDiff lists the lines of want missing from got and the reverse.
func lineDiff(want, got string) string {
	has := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	w, g := has(want), has(got)
	var b strings.Builder
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			fmt.Fprintf(&b, "+ %s\n", l)
		}
	}
	return b.String()
}

var (
	// What differs between two runs of the demo: dates, ages, offsets and
	// durations (units' forms), and the padding that follows their width.
	runDate     = regexp.MustCompile(`\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d(\.\d+)?)?Z?`)
	runAge      = regexp.MustCompile(`\b(just now|\d+[smhd] ago)\b`)
	runDuration = regexp.MustCompile(`[+]?\d+(\.\d+)?(µs|ms|s|m\d\ds|h\d\dm)\b`)
	runID       = regexp.MustCompile(`\b[0-9a-f]{16}\b`)
	runTemp     = regexp.MustCompile(regexp.QuoteMeta(os.TempDir()) + `\S*`)
	runSpace    = regexp.MustCompile(`[ \t\x{a0}]+`)
	runRule     = regexp.MustCompile(`[─━═]+`)
)

// maskRun returns s with what differs between runs masked: dates, ages
// and durations read "#", session ids ID, temporary paths TEMP, runs of blanks one space, and blank lines gone.
func maskRun(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		l = runDate.ReplaceAllString(l, "#")
		l = runAge.ReplaceAllString(l, "#")
		l = runID.ReplaceAllString(l, "ID")
		l = runTemp.ReplaceAllString(l, "TEMP")
		l = runDuration.ReplaceAllString(l, "#")
		l = runRule.ReplaceAllString(l, "─")
		l = strings.TrimSpace(runSpace.ReplaceAllString(l, " "))
		if l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n") + "\n"
}

// elementShot is a PNG of the first element matching sel.
func elementShot(t *testing.T, p *page, sel string) []byte {
	t.Helper()
	ctx, cancel := p.timed()
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("a screenshot of %s: %v", sel, err)
	}
	return png
}

// viewportShot is a PNG of what the window shows (1280×900).
func viewportShot(t *testing.T, p *page) []byte {
	t.Helper()
	ctx, cancel := p.timed()
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("a screenshot: %v", err)
	}
	return png
}

// terminalPage draws screen, a terminal's text with SGR escape sequences
// (tmux capture-pane -e), as a page: one <pre> on a dark terminal's
// colours.
func terminalPage(screen string) string {
	var b strings.Builder
	b.WriteString(`<!doctype html><meta charset="utf-8"><title>mcptrail open</title>
<style>body{margin:0;background:#fff}pre{display:inline-block;margin:0;padding:14px 16px;background:#1d1f21;color:#d0d0d0;
font:14px/1.3 "DejaVu Sans Mono","Liberation Mono",monospace;border-radius:6px}</style><pre>`)
	var st sgr
	open := false
	flush := func() {
		if open {
			b.WriteString("</span>")
			open = false
		}
		if css := st.css(); css != "" {
			fmt.Fprintf(&b, `<span style="%s">`, css)
			open = true
		}
	}
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	for i, line := range lines {
		for len(line) > 0 {
			j := strings.Index(line, "\x1b[")
			if j < 0 {
				b.WriteString(html.EscapeString(line))
				break
			}
			b.WriteString(html.EscapeString(line[:j]))
			line = line[j+2:]
			k := strings.IndexFunc(line, func(r rune) bool { return r >= '@' && r <= '~' })
			if k < 0 {
				break
			}
			if line[k] == 'm' {
				st.apply(line[:k])
				flush()
			}
			line = line[k+1:]
		}
		if i < len(lines)-1 {
			b.WriteString("\n")
		}
	}
	if open {
		b.WriteString("</span>")
	}
	b.WriteString("</pre>")
	return b.String()
}

// sgr is the graphic state the escape sequences set.
type sgr struct {
	fg, bg                          string // CSS colours, "" for the default
	bold, faint, italic, under, rev bool
}

func (s *sgr) apply(params string) {
	ps := strings.Split(params, ";")
	for i := 0; i < len(ps); i++ {
		n, _ := strconv.Atoi(ps[i])
		switch {
		case n == 0:
			*s = sgr{}
		case n == 1:
			s.bold = true
		case n == 2:
			s.faint = true
		case n == 3:
			s.italic = true
		case n == 4:
			s.under = true
		case n == 7:
			s.rev = true
		case n == 22:
			s.bold, s.faint = false, false
		case n == 23:
			s.italic = false
		case n == 24:
			s.under = false
		case n == 27:
			s.rev = false
		case n >= 30 && n <= 37:
			s.fg = xterm(n - 30)
		case n >= 90 && n <= 97:
			s.fg = xterm(n - 90 + 8)
		case n >= 40 && n <= 47:
			s.bg = xterm(n - 40)
		case n >= 100 && n <= 107:
			s.bg = xterm(n - 100 + 8)
		case n == 39:
			s.fg = ""
		case n == 49:
			s.bg = ""
		case n == 38 || n == 48:
			var c string
			if i+2 < len(ps) && ps[i+1] == "5" {
				k, _ := strconv.Atoi(ps[i+2])
				c, i = xterm(k), i+2
			} else if i+4 < len(ps) && ps[i+1] == "2" {
				r, _ := strconv.Atoi(ps[i+2])
				g, _ := strconv.Atoi(ps[i+3])
				bl, _ := strconv.Atoi(ps[i+4])
				c, i = fmt.Sprintf("#%02x%02x%02x", r, g, bl), i+4
			}
			if n == 38 {
				s.fg = c
			} else {
				s.bg = c
			}
		}
	}
}

func (s sgr) css() string {
	fg, bg := s.fg, s.bg
	if s.rev {
		if fg == "" {
			fg = "#d0d0d0"
		}
		if bg == "" {
			bg = "#1d1f21"
		}
		fg, bg = bg, fg
	}
	var parts []string
	if fg != "" {
		parts = append(parts, "color:"+fg)
	}
	if bg != "" {
		parts = append(parts, "background:"+bg)
	}
	if s.bold {
		parts = append(parts, "font-weight:bold")
	}
	if s.faint {
		parts = append(parts, "opacity:.6")
	}
	if s.italic {
		parts = append(parts, "font-style:italic")
	}
	if s.under {
		parts = append(parts, "text-decoration:underline")
	}
	return strings.Join(parts, ";")
}

// xterm is colour n of the xterm 256-colour palette.
func xterm(n int) string {
	base := [16]string{"#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
		"#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff"}
	switch {
	case n < 0 || n > 255:
		return ""
	case n < 16:
		return base[n]
	case n < 232:
		n -= 16
		level := func(v int) int {
			if v == 0 {
				return 0
			}
			return 55 + 40*v
		}
		return fmt.Sprintf("#%02x%02x%02x", level(n/36), level(n/6%6), level(n%6))
	default:
		v := 8 + 10*(n-232)
		return fmt.Sprintf("#%02x%02x%02x", v, v, v)
	}
}
