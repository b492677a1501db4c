package events

import (
	"bytes"
	"fmt"
	"io"

	"github.com/go-json-experiment/json"
)

// Marshal encodes one event as a line of JSON (without the newline), with
// map keys sorted so that equal events encode equally.
func Marshal(e *Event) ([]byte, error) {
	b, err := json.Marshal(e, json.Deterministic(true))
	if err != nil {
		return nil, fmt.Errorf("encoding event %s: %w", e.ID, err)
	}
	return b, nil
}

// WriteJSONL writes events to w, one JSON object a line.
func WriteJSONL(w io.Writer, evs []Event) error {
	var buf bytes.Buffer
	for i := range evs {
		b, err := Marshal(&evs[i])
		if err != nil {
			return err
		}
		buf.Write(b)
		buf.WriteByte('\n')
		if buf.Len() >= 64<<10 {
			if _, err := w.Write(buf.Bytes()); err != nil {
				return fmt.Errorf("writing events: %w", err)
			}
			buf.Reset()
		}
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("writing events: %w", err)
	}
	return nil
}
