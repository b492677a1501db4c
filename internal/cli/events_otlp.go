package cli

import (
	"context"
	"io"

	"github.com/mcptrail/mcptrail/internal/events"
	"github.com/mcptrail/mcptrail/internal/events/otlp"
	"github.com/mcptrail/mcptrail/internal/store"
)

// writeOTLPJSON writes the events as an OTLP/JSON file (a traces line and
// a logs line), built by the same code as the live --otlp-endpoint sink.
func writeOTLPJSON(w io.Writer, sess *store.Session, evs []events.Event) error {
	return otlp.WriteJSON(context.Background(), w, evs, sess.ID)
}
