package stream

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/wire"
)

// The answer column shows what came back. An error's message is in the
// store; a result's first text is not (the store keeps no payload), so
// the stream reads the response frames of the rows on screen back from
// the capture, redacted (ui.Data.Frame), in a command, and keeps what it
// read by response seq.

// maxPreview bounds a preview, in bytes.
const maxPreview = 512

// previews are the result texts read so far, shared by the copies of a
// Model (one goroutine: the app's).
type previews struct {
	text    map[uint64]string
	pending map[uint64]bool
}

func newPreviews() *previews {
	return &previews{text: map[uint64]string{}, pending: map[uint64]bool{}}
}

// PreviewMsg carries result texts read for the answer column, by
// response seq.
type PreviewMsg struct {
	Text map[uint64]string
	pv   *previews // the cache asking: another session's is dropped
}

// PreviewCmd returns the command that reads the results of the rows on
// screen the answer column has no text for yet; nil when there are none
// or the screen has no answer column.
func (m Model) PreviewCmd() tea.Cmd {
	lay := layoutFor(m.w)
	if lay[colPreview] == 0 || m.data.Snap == nil || m.grammar {
		return nil
	}
	var seqs []uint64
	for i := m.off; i < m.off+m.body() && i < len(m.ix.rows); i++ {
		r := m.ix.rows[i]
		if r.kind == rowLine {
			continue
		}
		c := m.data.Snap.Calls.At(int(r.idx))
		if r.kind == rowCall && c.Operation >= 0 && c.Operation < m.data.Snap.Operations.Len() {
			op := m.data.Snap.Operations.At(c.Operation)
			c = m.data.Snap.Calls.At(op.Rounds[len(op.Rounds)-1].Call)
		}
		seq := c.ResponseSeq
		if seq == 0 || c.Error != nil || m.pv.pending[seq] {
			continue
		}
		m.pv.pending[seq] = true
		seqs = append(seqs, seq)
	}
	if len(seqs) == 0 {
		return nil
	}
	d, pv := m.data, m.pv
	return func() tea.Msg {
		out := make(map[uint64]string, len(seqs))
		for _, seq := range seqs {
			rec, err := d.Frame(seq)
			if err != nil {
				out[seq] = ""
				continue
			}
			out[seq] = resultText(wire.Decode(rec.Msg).Result)
		}
		return PreviewMsg{Text: out, pv: pv}
	}
}

// SetPreviews files the texts a PreviewCmd read.
func (m Model) SetPreviews(msg PreviewMsg) Model { return m.setPreviews(msg) }

// setPreviews files texts read.
func (m Model) setPreviews(msg PreviewMsg) Model {
	if msg.pv != m.pv {
		return m
	}
	for seq, t := range msg.Text {
		m.pv.text[seq] = t
	}
	return m
}

// resultText is a result's first text content, on one line, marked when
// the tool reported an error (isError).
func resultText(result jsontext.Value) string {
	var r struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if json.Unmarshal(result, &r) != nil {
		return ""
	}
	t := ""
	for _, c := range r.Content {
		if c.Type == "text" {
			t = c.Text
			break
		}
	}
	if len(t) > maxPreview {
		t = strings.ToValidUTF8(t[:maxPreview], "")
	}
	t = strings.Join(strings.Fields(t), " ")
	if r.IsError {
		return "error: " + t
	}
	return t
}

// previewOf is the answer column's text for the call answered at seq
// with error e.
func (m Model) previewOf(seq uint64, e string) string {
	if e != "" {
		return e
	}
	return m.pv.text[seq]
}
