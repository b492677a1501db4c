package index

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"
)

// The generator writes captures of known content and records, as it
// writes them, the answers stats must give: the truth is what was put on
// the wire, computed here and not by the code under test.

// genOptions shapes a generated set of sessions.
type genOptions struct {
	Sessions int
	// Calls is the number of tool calls per session (a plain call is two
	// frames, one that asks the user four, one left pending three).
	Calls int
	// Frames, when set, replaces Calls: calls are written until the
	// session holds at least this many frames.
	Frames int
	// Newest is the start of session 0; session i starts Spacing earlier.
	Newest  time.Time
	Spacing time.Duration
	Seed    uint64
}

// genCall is one tool call as written.
type genCall struct {
	tool     string
	failed   bool
	duration float64 // ms, first request to final answer
	// asked is set when the server asked a question.
	asked    bool
	key      string
	mode     string
	action   string // "" when never answered (pending)
	elapsed  float64
	wait, op float64
}

// genSession is one session as written.
type genSession struct {
	path          string
	id, label     string
	start         time.Time
	client        string
	clientVersion string
	form, url     bool
	server        string
	calls         []genCall
}

// The generator's vocabulary.
func genLabels() []string  { return []string{"alpha", "beta", "gamma"} }
func genTools() []string   { return []string{"search", "fetch", "book", "pay"} }
func genServers() []string { return []string{"srv-a", "srv-b"} }

type genClient struct {
	name, version string
	form, url     bool
}

func genClients() []genClient {
	return []genClient{{"claude", "1.2", true, true}, {"cursor", "0.9", true, false}, {"cli", "3", false, false}}
}

// generate writes o.Sessions captures into dir and returns what they hold.
func generate(dir string, o genOptions) ([]genSession, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(o.Seed, 7))
	out := make([]genSession, 0, o.Sessions)
	for i := range o.Sessions {
		c := genClients()[rng.IntN(len(genClients()))]
		s := genSession{
			id: fmt.Sprintf("%016x", 0xa000000000000000+uint64(i)), label: genLabels()[rng.IntN(len(genLabels()))],
			start:  o.Newest.Add(-time.Duration(i) * o.Spacing).UTC().Truncate(time.Millisecond),
			client: c.name, clientVersion: c.version, form: c.form, url: c.url,
			server: genServers()[rng.IntN(len(genServers()))],
		}
		s.path = filepath.Join(dir, s.start.Format("20060102T150405.000000Z")+"-"+s.label+"-"+s.id+".jsonl")
		if err := writeGenSession(&s, o.Calls, o.Frames, rng); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// genWriter writes one capture's records.
type genWriter struct {
	w   *bufio.Writer
	seq int
	s   *genSession
}

func (g *genWriter) frame(t time.Time, dir, msg string) {
	g.seq++
	fmt.Fprintf(g.w, `{"type":"frame","seq":%d,"time":%q,"dir":%q,"size":%d,"msg":%s}`+"\n",
		g.seq, t.Format(time.RFC3339Nano), dir, len(msg), msg)
}

func (g *genWriter) meta() string {
	caps := "{}"
	switch {
	case g.s.form && g.s.url:
		caps = `{"elicitation":{"form":{},"url":{}}}`
	case g.s.form:
		caps = `{"elicitation":{"form":{}}}`
	case g.s.url:
		caps = `{"elicitation":{"url":{}}}`
	}
	return fmt.Sprintf(`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":%q,"version":%q},"io.modelcontextprotocol/clientCapabilities":%s}`,
		g.s.client, g.s.clientVersion, caps)
}

func writeGenSession(s *genSession, calls, frames int, rng *rand.Rand) error {
	f, err := os.OpenFile(s.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	g := &genWriter{w: bufio.NewWriter(f), s: s}
	fmt.Fprintf(g.w, `{"type":"session","time":%q,"format":1,"session_id":%q,"transport":"stdio","label":%q,"command":["srv"]}`+"\n",
		s.start.Format(time.RFC3339Nano), s.id, s.label)
	t := s.start
	id := 0
	for j := 0; j < calls || g.seq < frames; j++ {
		t = t.Add(time.Duration(1+rng.IntN(5)) * time.Millisecond)
		c := g.call(&t, &id, j == 0, rng)
		s.calls = append(s.calls, c)
	}
	fmt.Fprintf(g.w, `{"type":"end","time":%q}`+"\n", t.Add(time.Millisecond).Format(time.RFC3339Nano))
	if err := g.w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// call writes one tool call starting at *t, moving *t past its end.
func (g *genWriter) call(t *time.Time, id *int, first bool, rng *rand.Rand) genCall {
	c := genCall{tool: genTools()[rng.IntN(len(genTools()))]}
	serverMeta := ""
	if first {
		serverMeta = fmt.Sprintf(`,"_meta":{"io.modelcontextprotocol/serverInfo":{"name":%q,"version":"1.0"}}`, g.s.server)
	}
	*id++
	req := func(extra string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{}%s,%s}}`, *id, c.tool, extra, g.meta())
	}
	start := *t
	g.frame(*t, "c2s", req(""))
	a := time.Duration(1+rng.IntN(200)) * time.Millisecond
	*t = t.Add(a)
	if rng.IntN(4) == 0 && (g.s.form || g.s.url || rng.IntN(2) == 0) {
		c.asked, c.mode, c.key = true, "form", "confirm"
		params := `{"mode":"form","message":"Confirm?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}`
		if c.tool == "pay" {
			c.mode, c.key = "url", "checkout"
			params = `{"mode":"url","url":"https://pay.example.com/c","message":"Pay please"}`
		}
		g.frame(*t, "s2c", fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"resultType":"input_required","inputRequests":{%q:{"method":"elicitation/create","params":%s}},"requestState":"st"%s}}`,
			*id, c.key, params, serverMeta))
		serverMeta = ""
		if rng.IntN(5) == 0 { // never answered
			c.duration, c.op = float64(a.Milliseconds()), float64(a.Milliseconds())
			return c
		}
		c.action = []string{"accept", "accept", "decline", "cancel"}[rng.IntN(4)]
		w := time.Duration(100+rng.IntN(5000)) * time.Millisecond
		*t = t.Add(w)
		*id++
		answer := fmt.Sprintf(`{"action":%q}`, c.action)
		if c.action == "accept" && c.mode == "form" {
			answer = `{"action":"accept","content":{"ok":true}}`
		}
		g.frame(*t, "c2s", req(fmt.Sprintf(`,"inputResponses":{%q:%s},"requestState":"st"`, c.key, answer)))
		b := time.Duration(1+rng.IntN(100)) * time.Millisecond
		*t = t.Add(b)
		c.elapsed, c.wait = float64(w.Milliseconds()), float64(w.Milliseconds())
	}
	c.failed = rng.IntN(6) == 0
	isErr := ""
	if c.failed {
		isErr = `,"isError":true`
	}
	g.frame(*t, "s2c", fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"resultType":"complete","content":[]%s%s}}`, *id, isErr, serverMeta))
	c.duration = float64(t.Sub(start).Milliseconds())
	if c.asked {
		c.op = c.duration
	}
	return c
}
