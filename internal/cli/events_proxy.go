package cli

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/events"
	"github.com/mcptrail/mcptrail/internal/events/httpsink"
	"github.com/mcptrail/mcptrail/internal/events/otlp"
	"github.com/mcptrail/mcptrail/internal/tap/feed"
)

// noteEvents is the capture note that reports the events pipeline's
// counters (docs/events.md).
const noteEvents = "events"

// eventsFlags are the proxy's analytics event flags.
type eventsFlags struct {
	file         string
	url          string
	headers      []string
	content      bool
	otlpEndpoint string
	otlpProtocol string
	otlpHeaders  []string
	flush        time.Duration
	mcpcat       mcpcatFlags  // events_mcpcat.go
	metrics      metricsFlags // metrics.go
}

func (f *eventsFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&f.file, "events-file", "", "append analytics events to `PATH` as JSONL")
	fs.StringVar(&f.url, "events-url", "", "POST analytics events to `URL` as JSON batches (with --events-format mcpcat: the MCPcat API's base URL)")
	fs.StringArrayVar(&f.headers, "events-header", nil, "add header `K=V` to --events-url requests; repeatable")
	fs.BoolVar(&f.content, "events-content", false, "include the values of parameters, results and elicitation answers in events (after the --redact-* rules) instead of their shapes")
	fs.StringVar(&f.otlpEndpoint, "otlp-endpoint", "", "export events as OpenTelemetry spans and logs to the collector at `URL`")
	fs.StringVar(&f.otlpProtocol, "otlp-protocol", otlp.ProtocolHTTP, "OTLP protocol: http/protobuf or grpc")
	fs.StringArrayVar(&f.otlpHeaders, "otlp-header", nil, "add header `K=V` to OTLP exports; repeatable")
	fs.DurationVar(&f.flush, "events-flush-timeout", 5*time.Second, "how long to deliver queued events after the server exits")
	f.mcpcat.add(fs)
	f.metrics.add(fs)
}

func (f *eventsFlags) enabled() bool {
	return f.file != "" || f.url != "" || f.otlpEndpoint != "" || f.mcpcat.enabled()
}

// liveEvents is a running events pipeline and what it owns.
type liveEvents struct {
	p       *events.Pipeline
	feed    *feed.Feed // the tap hands the pipeline its records through it
	file    *os.File
	flush   time.Duration
	metrics *metricsServer // nil without --metrics-listen
}

// start builds the sinks the flags ask for and starts the pipeline, fed
// by the tap's records; nil when no sink is asked for. A pipeline that
// falls behind catches up from the capture file (nil: none, it loses
// records instead).
func (f *eventsFlags) start(ctx context.Context, ios *IOStreams, capt *capture.File) (*liveEvents, error) {
	if err := f.mcpcat.check(f); err != nil {
		return nil, err
	}
	if !f.enabled() && !f.metrics.enabled() {
		return nil, nil
	}
	fo := &feed.Options{}
	if capt != nil {
		lines, off, err := capt.Start()
		if err != nil {
			return nil, err
		}
		fo.Path, fo.Lines, fo.Offset = capt.Path(), lines, off
	}
	l := &liveEvents{flush: f.flush}
	var sinks []events.Sink
	if f.file != "" {
		file, err := os.OpenFile(f.file, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			return nil, fmt.Errorf("opening events file %s: %w", f.file, reason(err))
		}
		l.file = file
		sinks = append(sinks, events.NewFileSink(file))
	}
	if f.mcpcat.enabled() {
		sinks = append(sinks, f.mcpcat.sink(f.url))
	} else if f.url != "" {
		h, err := headerPairs("--events-header", f.headers)
		if err != nil {
			return nil, err
		}
		hdr := http.Header{}
		for k, v := range h {
			hdr.Set(k, v)
		}
		sinks = append(sinks, httpsink.New(&httpsink.Options{URL: f.url, Header: hdr}))
	}
	if f.otlpEndpoint != "" {
		h, err := headerPairs("--otlp-header", f.otlpHeaders)
		if err != nil {
			return nil, err
		}
		s, err := otlp.New(ctx, &otlp.Options{Endpoint: f.otlpEndpoint, Protocol: f.otlpProtocol, Headers: h})
		if err != nil {
			return nil, usagef("%v", err)
		}
		sinks = append(sinks, s)
	}
	return l, l.run(ios, f, fo, sinks)
}

// run starts the metrics server (--metrics-listen) and the pipeline.
func (l *liveEvents) run(ios *IOStreams, f *eventsFlags, fo *feed.Options, sinks []events.Sink) error {
	po := &events.PipelineOptions{Content: f.content, Sinks: sinks}
	var err error
	if l.metrics, err = f.metrics.serve(ios); err != nil {
		l.closeFile()
		return err
	}
	if l.metrics != nil {
		po.Sinks, po.OnRecord = append(po.Sinks, l.metrics.sink), l.metrics.sink.Record
	}
	l.feed = feed.New(fo)
	po.Source = l.feed.Subscribe(nil)
	l.p = events.NewPipeline(po)
	return nil
}

// closeFile closes the events file on an error path.
func (l *liveEvents) closeFile() {
	if l.file != nil {
		_ = l.file.Close()
	}
}

// headerPairs parses K=V flags.
func headerPairs(flag string, kvs []string) (map[string]string, error) {
	out := map[string]string{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, usagef("invalid %s %q (want K=V)", flag, kv)
		}
		out[strings.TrimSpace(k)] = v
	}
	return out, nil
}

// notes is the tap's BeforeEnd hook: a note with the counters so far.
func (l *liveEvents) notes() []capture.Record {
	st := l.p.Stats()
	return []capture.Record{{Type: capture.TypeNote, Note: noteEvents, Text: "analytics events so far: " + st.String()}}
}

// finish flushes the sinks within the flush timeout and reports on
// stderr what was lost.
func (l *liveEvents) finish(ios *IOStreams) {
	ctx, cancel := context.WithTimeout(context.Background(), l.flush)
	defer cancel()
	st, err := l.p.Close(ctx)
	if l.metrics != nil {
		l.metrics.close()
	}
	if l.file != nil {
		if cerr := l.file.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}
	// Events a receiver rejected are not lost: the sink's error reports
	// them, in one line (the MCPcat API's 400s).
	if st.Lost() > 0 {
		fmt.Fprintf(ios.ErrOut, "mcptrail: analytics events: %s\n", st.String())
	}
	if err != nil {
		printError(ios.ErrOut, err)
	}
}

// closeQuietly discards a capture file on an error path, before any
// traffic was relayed (nil: nothing).
func closeQuietly(f *capture.File) {
	if f != nil {
		_ = f.Discard()
	}
}
