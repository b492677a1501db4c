package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/events"
	"github.com/mcptrail/mcptrail/internal/redact"
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

// runEventsExport writes a capture's analytics events. They stream: each
// event is written (JSONL) or handed to the OTLP/JSON writer as the store
// reports it, so memory follows the open calls, not the capture's size.
func runEventsExport(opts *exportOptions) error {
	ios, red := opts.IOStreams, opts.red
	r, in, name, err := openExportReader(opts)
	if err != nil {
		return err
	}
	defer in.Close()
	hdr := redactedHeader(r, red)
	return writeOutput(ios, opts.output, func(out io.Writer, spoolDir string) error {
		w := termtext.NewJSONWriter(out)
		sink, err := newEventsSink(w, opts.format, hdr.SessionID, spoolDir)
		if err != nil {
			return err
		}
		readErr := streamEvents(r, hdr, red, events.NewFeed(opts.events.content, sink.add))
		if err := sink.close(); err != nil {
			return err
		}
		if readErr != nil {
			return fmt.Errorf("reading %s: %w", name, readErr)
		}
		reportDamage(ios.ErrOut, name, r.Damage())
		return w.Flush()
	})
}

// streamEvents reads a whole capture into feed, which builds each event as
// it is due, redacting each record with red (nil: none) before the feed
// sees it: the same path the live pipeline takes.
func streamEvents(r *capture.Reader, hdr *capture.Record, red redact.Redactor, feed *events.Feed) error {
	feed.Ingest(hdr)
	var rec capture.Record
	for {
		err := r.Next(&rec)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if red != nil {
			red.Record(&rec)
		}
		feed.Ingest(&rec)
		rec = capture.Record{}
	}
}
