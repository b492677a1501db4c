package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/events"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// Export formats served by the events package.
const (
	formatEvents = "events" // analytics events, JSONL
	formatOTLP   = "otlp"   // the same events as OTLP/JSON traces and logs
)

// eventsExportFlags are export's flags for -T events and -T otlp.
type eventsExportFlags struct {
	content bool
}

func (f *eventsExportFlags) add(fs *pflag.FlagSet) {
	fs.BoolVar(&f.content, "events-content", false,
		"with -T events or otlp, include the values of parameters, results and elicitation answers (after the --redact-* rules) instead of their shapes")
}

// runEventsExport writes a capture's analytics events.
func runEventsExport(ios *IOStreams, opts *exportOptions, red *redact.Redactor) error {
	r, in, name, err := openExportReader(ios, opts)
	if err != nil {
		return err
	}
	defer in.Close()
	snap, err := loadEvents(r, red, opts.events.content)
	if err != nil {
		return fmt.Errorf("reading %s: %w", name, err)
	}
	reportDamage(ios.ErrOut, name, snap.Session.Damage)
	evs := events.FromSnapshot(snap)
	return writeOutput(ios, opts.output, func(out io.Writer, _ string) error {
		w := termtext.NewJSONWriter(out)
		var err error
		if opts.format == formatOTLP {
			err = writeOTLPJSON(w, &snap.Session, evs)
		} else {
			err = events.WriteJSONL(w, evs)
		}
		if err != nil {
			return err
		}
		return w.Flush()
	})
}

// loadEvents reads a whole capture into a store that keeps the event log,
// redacting each record with red (nil: none) before the store sees it.
func loadEvents(r *capture.Reader, red *redact.Redactor, content bool) (*store.Snapshot, error) {
	s := store.New(&store.Options{Events: &store.EventOptions{Content: content}})
	s.Ingest(redactedHeader(r, red))
	var rec capture.Record
	for {
		err := r.Next(&rec)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if red != nil {
			red.Record(&rec)
		}
		s.Ingest(&rec)
		rec = capture.Record{}
	}
	s.SetDamage(r.Damage())
	return s.Final(), nil
}
