package textexport

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/mcptrail/mcptrail/internal/oauth"
	"github.com/mcptrail/mcptrail/internal/termtable"
)

// writeAuth writes the authorization section, one table per flow; a
// session without a flow gets no section at all.
func writeAuth(w *bufio.Writer, a *oauth.Auth, start time.Time, l Layout) {
	if a == nil || len(a.Flows) == 0 {
		return
	}
	fmt.Fprintf(w, "\nauthorization (%s)\n", plural(len(a.Flows), "flow"))
	writeFlows(w, a, start, l, "  ")
}

// WriteAuth writes a session's authorization flows as `mcptrail auth`
// prints them: per flow a heading (resource and issuer) and a table of its
// steps with their seq, time since start, duration, request, status and
// what matters of each. It writes nothing for a session without a flow.
func WriteAuth(w io.Writer, a *oauth.Auth, start time.Time, l Layout) error {
	bw := bufio.NewWriter(w)
	writeFlows(bw, a, start, l, "")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing authorization flow: %w", err)
	}
	return nil
}

func writeFlows(w *bufio.Writer, a *oauth.Auth, start time.Time, l Layout, indent string) {
	for i := range a.Flows {
		f := &a.Flows[i]
		if i > 0 {
			w.WriteByte('\n')
		}
		fmt.Fprintf(w, "%sflow %d: resource %s, issuer %s\n", indent, i+1, dash(cell(f.Resource)), dash(cell(f.Issuer)))
		t := &termtable.Table{Indent: indent, Columns: []termtable.Column{
			{Header: "SEQ"},
			{Header: "AT", Drop: 3},
			{Header: "TOOK", Drop: 1},
			{Header: "STEP"},
			{Header: "REQUEST", Cut: true, Min: 24, Drop: 2},
			{Header: "STATUS"},
			{Header: "DETAILS", Cut: true, Min: 24},
		}}
		body := make(cells, len(f.Steps))
		for j := range f.Steps {
			st := &f.Steps[j]
			status, style := stepStatus(st)
			body[j] = []termtable.Cell{text("#" + strconv.FormatUint(st.Seq, 10)), text(offset(start, st.Time)),
				text(formatMS(st.DurationMS)), text(st.Kind), text(cell(st.Method + " " + stripQuery(st.URL))),
				styled(status, style), text(cell(st.Details()))}
		}
		l.render(w, t, body)
	}
	writeProofs(w, a, start, l, indent)
}

// writeProofs writes the session's DPoP proofs: per proof its request and
// its claims as the capture keeps them (never a signature or a token).
func writeProofs(w *bufio.Writer, a *oauth.Auth, start time.Time, l Layout, indent string) {
	if len(a.Proofs) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%sdpop proofs (%d)\n", indent, len(a.Proofs))
	t := &termtable.Table{Indent: indent, Columns: []termtable.Column{
		{Header: "SEQ"},
		{Header: "AT", Drop: 2},
		{Header: "REQUEST", Cut: true, Min: 24, Drop: 1},
		{Header: "JTI", Cut: true, Min: 8},
		{Header: "HTM"},
		{Header: "HTU", Cut: true, Min: 16},
		{Header: "ATH"},
		{Header: "DETAILS", Cut: true, Min: 16},
	}}
	body := make(cells, len(a.Proofs))
	for i := range a.Proofs {
		p := &a.Proofs[i]
		var d []string
		if p.Problem != "" {
			d = append(d, p.Problem)
		}
		if p.Typ != "" || p.Alg != "" {
			d = append(d, "typ="+p.Typ, "alg="+p.Alg)
		}
		if p.IAT != 0 {
			d = append(d, "iat="+strconv.FormatInt(p.IAT, 10))
		}
		if p.Nonce != "" {
			d = append(d, "nonce="+p.Nonce)
		}
		if p.MCPMethod != "" {
			d = append(d, "mcp="+p.MCPMethod)
		}
		body[i] = []termtable.Cell{text("#" + strconv.FormatUint(p.Seq, 10)), text(offset(start, p.Time)),
			text(cell(p.Method + " " + stripQuery(p.URL))), text(dash(cell(p.JTI))), text(dash(cell(p.HTM))),
			text(dash(cell(p.HTU))), text(dash(p.ATH)), text(dash(cell(strings.Join(d, " "))))}
	}
	l.render(w, t, body)
}

func stripQuery(u string) string {
	u, _, _ = strings.Cut(u, "#")
	if base, _, ok := strings.Cut(u, "?"); ok {
		return base + "?…"
	}
	return u
}

// stepStatus is the status cell: the HTTP status, "ok" or the error.
func stepStatus(st *oauth.Step) (string, termtable.Style) {
	s := "-"
	if st.Status != 0 {
		s = strconv.Itoa(st.Status)
	}
	switch {
	case st.OK:
		return s + " ok", termtable.Good
	case st.Error != "":
		return s + " " + cell(st.Error), termtable.Bad
	case st.Status == 0:
		return s, termtable.Warn
	}
	return s, termtable.Bad
}
