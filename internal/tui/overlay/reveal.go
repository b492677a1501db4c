package overlay

import (
	"errors"
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// The ledger's rows carry no value a user typed (the seed's rule, kept
// in every export). On request, for the selected row only, the overlay
// reads the answer back from the capture, with the session's redaction
// applied (ui.Data.Frame), and shows it marked as revealed; it lives in
// the overlay's model and goes nowhere else.

// revealer rows reveal something of the selected row on a key: the
// command reads it, revealed files the result.
type revealer[R any] interface {
	reveal(f *frame) tea.Cmd
	revealed(f *frame, msg revealMsg) R
}

// revealMsg is the answer read back for the ledger row id.
type revealMsg struct {
	id   rowID
	text string // the action and the content, compact JSON
	err  error
}

// errNoAnswer is the reveal of a row that was never answered.
var errNoAnswer = errors.New("not answered: nothing to reveal")

// revealKey is the ledger's key that reveals the selected row's answer.
func revealKey() key.Binding {
	return key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "reveal the answer (local only)"))
}

// reveal reads the selected row's answer from the capture.
func (ledgerRows) reveal(f *frame) tea.Cmd {
	if f.data.Snap == nil || f.cur.sel >= f.data.Snap.Ledger.Len() {
		return nil
	}
	r := f.data.Snap.Ledger.At(f.cur.sel)
	d, id := f.data, idOf(&r)
	return func() tea.Msg {
		text, err := answerOf(d, &r)
		return revealMsg{id: id, text: text, err: err}
	}
}

// revealed keeps the answer for its row.
func (st ledgerRows) revealed(_ *frame, msg revealMsg) ledgerRows {
	st.shown = msg
	return st
}

// answerOf reads row r's answer from the frame that carried it: the
// retry's inputResponses entry under r.Key (MRTR), else the client's
// ElicitResult (legacy).
func answerOf(d ui.Data, r *store.LedgerRow) (string, error) {
	if r.AnsweredSeq == 0 {
		return "", errNoAnswer
	}
	rec, err := d.Frame(r.AnsweredSeq)
	if err != nil {
		return "", fmt.Errorf("reading the answer (line %d): %w", r.AnsweredLine, err)
	}
	fr := wire.Decode(rec.Msg)
	if r.Key != "" {
		for _, a := range mcp.InputAnswers(fr.Params) {
			if a.Key == r.Key {
				return answerText(a.Answer), nil
			}
		}
	}
	if a, ok := mcp.ParseElicitAnswer(fr.Result); ok {
		return answerText(a), nil
	}
	return "", fmt.Errorf("the frame at line %d holds no answer for this question", r.AnsweredLine)
}

// answerText is "accept {"name":"ada"}": the action and the content.
func answerText(a mcp.ElicitAnswer) string {
	if len(a.Content) == 0 {
		return a.Action
	}
	c := jsontext.Value(append([]byte(nil), a.Content...))
	if c.Compact() != nil {
		return a.Action + " " + string(a.Content)
	}
	return a.Action + " " + string(c)
}

// revealLine is the detail line of a revealed answer, when the selected
// row is the one revealed.
func (st ledgerRows) revealLine(f *frame, r *store.LedgerRow) (string, bool) {
	if st.shown.id == (rowID{}) || st.shown.id != idOf(r) {
		return "", false
	}
	mark := f.th.Warn.Render("revealed (local only) ")
	if st.shown.err != nil {
		return mark + f.th.Bad.Render(ui.Cell(st.shown.err.Error(), f.w)), true
	}
	return mark + ui.Cell(st.shown.text, f.w), true
}
