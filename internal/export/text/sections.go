package textexport

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtable"
	"github.com/mcptrail/mcptrail/internal/termtext"
	"github.com/mcptrail/mcptrail/internal/units"
)

func writeSession(w *bufio.Writer, s *store.Snapshot, width int) {
	ss := &s.Session
	fmt.Fprintf(w, "\nsession\n")
	tw := newTable(w, width)
	// Every value may hold capture text (argv, peer names, versions).
	row := func(k, v string) { fmt.Fprintf(tw, "  %s\t%s\n", k, termtext.Escape(v)) }
	row("id", ss.ID)
	row("label", ss.Label)
	row("transport", transportText(ss))
	if len(ss.Command) > 0 {
		row("command", strings.Join(ss.Command, " "))
	}
	if ss.Target != "" {
		row("target", ss.Target)
	}
	if ss.ToolVersion != "" {
		row("tool version", ss.ToolVersion)
	}
	row("format", strconv.Itoa(ss.Format))
	row("start", formatTime(ss.Start))
	end := formatTime(ss.End)
	if !ss.Ended {
		end += " (no end record)"
	}
	row("end", fmt.Sprintf("%s, after %s", end, formatMS(msBetween(ss.Start, ss.End))))
	row("server exit", exitText(ss))
	row("eras", listText(ss.Eras))
	row("protocol versions", listText(ss.ProtocolVersions))
	row("client", fmt.Sprintf("%s, elicitation form=%s url=%s", peerText(ss.Client), yesNo(ss.Client.ElicitForm), yesNo(ss.Client.ElicitURL)))
	row("server", peerText(ss.Server))
	row("damage", damageText(ss))
	if ss.Redacted {
		row("redacted", `yes (the values redaction selected read "[REDACTED]")`)
	}
	tw.flush()
}

// transportText is the session's transport, naming the 2024-11-05
// HTTP+SSE transport when the session used it.
func transportText(ss *store.Session) string {
	if ss.SSE.Seq == 0 {
		return ss.Transport
	}
	t := fmt.Sprintf("%s, HTTP+SSE (%s): endpoint event at #%d", ss.Transport, mcp.VersionHTTPSSE, ss.SSE.Seq)
	if ss.SSE.Endpoint != "" {
		t += ", messages POSTed to " + ss.SSE.Endpoint
	}
	return t
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return units.Time(t)
}

func exitText(s *store.Session) string {
	switch {
	case s.Signal != "":
		return "killed by " + s.Signal
	case s.Exit != nil:
		return "status " + strconv.Itoa(*s.Exit)
	}
	return "unknown"
}

func listText(l []string) string {
	if len(l) == 0 {
		return "-"
	}
	return strings.Join(l, ", ")
}

func peerText(p store.Peer) string {
	if p.Name == "" && p.Version == "" {
		return "unknown"
	}
	return strings.TrimSpace(p.Name + " " + p.Version)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func damageText(s *store.Session) string {
	var parts []string
	if d := s.Damage.String(); d != "" {
		parts = append(parts, d)
	}
	if s.LostFrames > 0 || s.LostBytes > 0 {
		parts = append(parts, fmt.Sprintf("%d frames (%d bytes) lost", s.LostFrames, s.LostBytes))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "; ")
}

func writeCalls(w *bufio.Writer, s *store.Snapshot, l Layout) {
	fmt.Fprintf(w, "\n%s\n", requestsHeading(s))
	if s.Calls.Len() > 0 {
		l.render(w, callTable(), callRows{&s.Calls})
	}
}

// requestsHeading heads the calls table, which lists every request: "requests (15): 9 calls,
// 5 more rounds, 1 server request". A call counts an MRTR operation once
// (Snapshot.CountCalls); its retries are rounds; requests the server sent
// the client (elicitation/create, sampling, roots) are server requests.
func requestsHeading(s *store.Snapshot) string {
	total := s.Calls.Len()
	calls, server := s.CountCalls()
	h := fmt.Sprintf("requests (%d): %s", total, plural(calls, "call"))
	if rounds := total - calls - server; rounds > 0 {
		h += ", " + plural(rounds, "more round")
	}
	if server > 0 {
		h += ", " + plural(server, "server request")
	}
	return h
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func callDuration(c *store.Call) string {
	if c.ResponseSeq == 0 {
		return "-"
	}
	return formatMS(c.DurationMS)
}

func seqText(c *store.Call) string {
	if c.ResponseSeq == 0 {
		return fmt.Sprintf("#%d→", c.RequestSeq)
	}
	return fmt.Sprintf("#%d→#%d", c.RequestSeq, c.ResponseSeq)
}

func callNotes(c *store.Call) string {
	var n []string
	if c.Operation >= 0 {
		n = append(n, fmt.Sprintf("op %d round %d", c.Operation, c.Round))
	}
	if c.Parent >= 0 {
		n = append(n, fmt.Sprintf("inside call %d (%s)", c.Parent, termtext.Escape(c.Attribution)))
	} else if c.Attribution != "" {
		n = append(n, termtext.Escape(c.Attribution))
	}
	if c.Error != nil {
		n = append(n, fmt.Sprintf("error %d %s", c.Error.Code, strconv.Quote(c.Error.Message)))
	}
	if c.CancelSeq != 0 {
		n = append(n, fmt.Sprintf("cancelled at #%d", c.CancelSeq))
	}
	if c.Late {
		n = append(n, "late result")
	}
	if c.ResultType != "" && c.ResultType != "complete" && c.ResultType != "input_required" {
		n = append(n, "resultType "+termtext.Escape(c.ResultType))
	}
	return strings.Join(n, "; ")
}

// writeOperations writes one paragraph per MRTR operation; its times go
// on a line of their own when the heading line would pass width.
func writeOperations(w *bufio.Writer, s *store.Snapshot, width int) {
	fmt.Fprintf(w, "\noperations (%d)\n", s.Operations.Len())
	for _, op := range s.Operations.All() {
		head := fmt.Sprintf("  op %d  %s %s  root call %d (id %s)  %s  %s", op.Index, termtext.Escape(op.Method),
			termtext.Escape(dash(op.Target)), op.Root, idText(op.RootID), termtext.Escape(op.Status), plural(len(op.Rounds), "round"))
		times := fmt.Sprintf("total %s, wait %s, tool %s", formatMS(op.DurationMS), formatMS(op.WaitMS), formatMS(op.ToolMS))
		sep := "  "
		if width > 0 && termtable.Width(head)+len(sep)+len(times) > width {
			sep = "\n    "
		}
		fmt.Fprintf(w, "%s%s%s\n", head, sep, times)
		if op.Task.ID != "" {
			fmt.Fprintf(w, "    %s\n", taskLine(&op.Task))
		}
		tw := newTable(w, width)
		for j := range op.Rounds {
			r := &op.Rounds[j]
			fmt.Fprintf(tw, "    round %d\tcall %d\tid %s\t%s\t%s\n", j+1, r.Call, idText(r.ID), termtext.Escape(r.Pairing), roundAsks(r))
		}
		tw.flush()
	}
}

// taskLine describes the task an operation became: its id, latest status
// and requests.
func taskLine(t *store.TaskInfo) string {
	s := fmt.Sprintf("task %s  %s  %s, %s, %s, %s", termtext.Escape(t.ID), termtext.Escape(dash(t.Status)),
		plural(t.Polls, "poll"), plural(t.Updates, "update"), plural(t.Cancels, "cancel"), plural(t.Notifications, "notification"))
	if t.PollIntervalMS > 0 {
		s += "  poll interval " + formatMS(float64(t.PollIntervalMS))
	}
	if !t.Terminal() {
		s += "  never seen terminal"
	}
	return s
}

func roundAsks(r *store.Round) string {
	var parts []string
	for _, ir := range r.InputRequests {
		parts = append(parts, termtext.Escape(ir.Key)+"="+termtext.Escape(ir.Method))
	}
	var s string
	if len(parts) > 0 {
		s = "asks " + strings.Join(parts, ", ")
	}
	if r.HasState {
		s = strings.TrimSpace(s + " +requestState")
	}
	return s
}

func writeSummary(w *bufio.Writer, s *store.Snapshot, l Layout) {
	c := &s.Counts
	fmt.Fprintf(w, "\nsummary\n  %d records, %d frames (%d c2s, %d s2c, %d bytes), %d invalid, %d notifications, %d stderr lines, %d notes\n",
		c.Records, c.Frames, c.C2S, c.S2C, c.Bytes, c.Invalid, c.Notifications, c.Stderr, c.Notes)
	writeStats(w, "METHOD", "CALLS", s.Summary.Methods, l)
	writeStats(w, "TOOL", "CALLS", s.Summary.Tools, l)
	writeStats(w, "SERVER REQUEST", "SENT", s.Summary.Server, l)
}

// writeStats writes a per-method or per-tool table, count headed as the
// table counts (the client's calls, the server's requests). CALLS counts
// an MRTR operation once; ROUNDS counts its requests.
func writeStats(w *bufio.Writer, what, count string, stats []store.Stat, l Layout) {
	if len(stats) == 0 {
		return
	}
	right := func(h string, width int) termtable.Column {
		return termtable.Column{Header: h, Align: termtable.Right, Width: width}
	}
	t := &termtable.Table{Indent: "  ", Gap: 1, Columns: []termtable.Column{
		{Header: what, Cut: true, Min: 12},
		right(count, 6), right("ROUNDS", 6), right("ERRORS", 6), right("P50", 10), right("P95", 10), right("P99", 10),
	}}
	t.Columns[5].Drop, t.Columns[6].Drop = 1, 2 // P95 and P99 go first
	rows := make(cells, len(stats))
	for i, st := range stats {
		errs := text(strconv.Itoa(st.Errors))
		if st.Errors > 0 {
			errs.Style = termtable.Bad
		}
		rows[i] = []termtable.Cell{text(termtext.Escape(st.Name)), text(strconv.Itoa(st.Count)), text(strconv.Itoa(st.Rounds)), errs,
			text(formatMS(st.P50MS)), text(formatMS(st.P95MS)), text(formatMS(st.P99MS))}
	}
	w.WriteByte('\n')
	l.render(w, t, rows)
}

// writeFindings writes one line per finding: severity, rule, where, and
// the message, cut to fit. The columns are at least as wide as the
// severities and most rule ids, so that the lines align across sessions.
func writeFindings(w *bufio.Writer, s *store.Snapshot, l Layout) {
	fmt.Fprintf(w, "\nfindings (%d)\n", s.Findings.Len())
	if s.Findings.Len() == 0 {
		return
	}
	t := &termtable.Table{Indent: "  ", Gap: 1, NoHeader: true, Columns: []termtable.Column{
		{Width: 7}, {Width: 26}, {Width: 6}, {Cut: true, Min: 24},
	}}
	body := make(cells, 0, s.Findings.Len())
	for f := range s.Findings.All() {
		at := "session"
		if f.Seq != 0 {
			at = fmt.Sprintf("#%d", f.Seq)
		}
		// A message quotes wire text with %q, not always: escape it whole.
		body = append(body, []termtable.Cell{styled(termtext.Escape(string(f.Severity)), termtable.Severity(string(f.Severity))),
			text(termtext.Escape(f.Rule)), text(at), text(termtext.Escape(f.Message))})
	}
	l.render(w, t, body)
}

// table aligns tab-separated cells like tabwriter and trims the padding
// that an empty last cell would leave at the end of a line.
type table struct {
	out   *bufio.Writer
	width int // a line is cut to width with "…"; 0: no limit
	buf   bytes.Buffer
	tw    *tabwriter.Writer
}

func newTable(w *bufio.Writer, width int) *table {
	t := &table{out: w, width: width}
	t.tw = tabwriter.NewWriter(&t.buf, 0, 0, 2, ' ', 0)
	return t
}

func (t *table) Write(p []byte) (int, error) { return t.tw.Write(p) }

func (t *table) flush() {
	t.tw.Flush()
	for _, line := range bytes.SplitAfter(t.buf.Bytes(), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		line = bytes.TrimRight(line, " \n")
		if t.width > 0 {
			line = []byte(termtable.Cut(string(line), t.width))
		}
		t.out.Write(line)
		t.out.WriteByte('\n')
	}
	t.buf.Reset()
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
