package otlp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"sync"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/mcptrail/mcptrail/internal/events"
)

// WriteJSON writes events as an OTLP/JSON file, as the OpenTelemetry
// Collector's file exporter writes one and its otlpjsonfile receiver reads
// it: a line holding an ExportTraceServiceRequest (the spans and their
// elicitation span events) and a line holding an ExportLogsServiceRequest
// (the elicitation log records), each in the protobuf JSON mapping with the
// OTLP/JSON deviations (trace and span ids in hex, enums as numbers). A
// line is left out when it would be empty. The spans and records are built
// by the same Sink as the live export, through the SDK; ids are derived
// from seed (the session id) so that the same events give the same file.
func WriteJSON(ctx context.Context, w io.Writer, evs []events.Event, seed string) error {
	fw, err := NewFileWriter(ctx, w, seed, "")
	if err != nil {
		return err
	}
	for i := range evs {
		fw.Add(&evs[i])
	}
	return fw.Close()
}

// FileWriter writes what WriteJSON writes from events fed one at a time,
// so that a large session streams: each span is encoded as it ends and
// spooled (in memory, then in a temporary file), and only the spans of
// operations still open and the elicitation log records are held.
type FileWriter struct {
	ctx  context.Context
	w    io.Writer
	tc   *traceCollector
	lc   *logCollector
	in   chan events.Event
	done chan error
}

// NewFileWriter starts a FileWriter writing to w once Close is called;
// spoolDir is where spans spill ("" means os.TempDir()).
func NewFileWriter(ctx context.Context, w io.Writer, seed, spoolDir string) (*FileWriter, error) {
	tc := &traceCollector{spoolDir: spoolDir}
	te, err := otlptrace.New(ctx, tc)
	if err != nil {
		return nil, fmt.Errorf("creating the OTLP/JSON trace exporter: %w", err)
	}
	lc := &logCollector{}
	res := serviceResource("")
	tp := sdktrace.NewTracerProvider(sdktrace.WithResource(res), sdktrace.WithSyncer(te), sdktrace.WithIDGenerator(newSeededIDs(seed)))
	lp := sdklog.NewLoggerProvider(sdklog.WithResource(res), sdklog.WithProcessor(sdklog.NewSimpleProcessor(lc)))
	// Observed timestamps are the events' own, so the file is reproducible.
	s := newSink(tp, lp, func(e *events.Event) time.Time { return e.Timestamp })
	fw := &FileWriter{ctx: ctx, w: w, tc: tc, lc: lc, in: make(chan events.Event), done: make(chan error, 1)}
	go func() { fw.done <- s.Run(ctx, fw.in) }()
	return fw, nil
}

// Add feeds one event. The FileWriter keeps no reference to e.
func (fw *FileWriter) Add(e *events.Event) { fw.in <- *e }

// Close ends the spans, writes the file and releases the spool. It must be
// called exactly once.
func (fw *FileWriter) Close() error {
	close(fw.in)
	defer fw.tc.release()
	if err := <-fw.done; err != nil {
		return fmt.Errorf("building OTLP data: %w", err)
	}
	if err := fw.tc.writeLine(fw.w); err != nil {
		return err
	}
	if logs := fw.lc.request(); logs != nil {
		b, err := marshalLine(logs)
		if err != nil {
			return err
		}
		if _, err := fw.w.Write(b); err != nil {
			return fmt.Errorf("writing OTLP/JSON: %w", err)
		}
	}
	return nil
}

// marshalLine encodes m in the OTLP/JSON mapping, compact, with a newline.
func marshalLine(m proto.Message) ([]byte, error) {
	b, err := protojson.MarshalOptions{UseEnumNumbers: true}.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encoding OTLP/JSON: %w", err)
	}
	out, err := hexIDs(b)
	if err != nil {
		return nil, fmt.Errorf("encoding OTLP/JSON: %w", err)
	}
	return append(out, '\n'), nil
}

// idField reports whether OTLP/JSON encodes member name in hex where the
// protobuf JSON mapping uses base64.
func idField(name string) bool {
	return name == "traceId" || name == "spanId" || name == "parentSpanId"
}

// hexIDs re-encodes protojson output compactly (protojson's whitespace is
// deliberately unstable) with the id members in hex.
func hexIDs(in []byte) ([]byte, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(in))
	var out bytes.Buffer
	enc := jsontext.NewEncoder(&out)
	name := ""
	for {
		tok, err := dec.ReadToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		isName := tok.Kind() == '"' && dec.StackDepth() > 0 && isObjectName(dec)
		if tok.Kind() == '"' && !isName && idField(name) {
			raw, err := base64.StdEncoding.DecodeString(tok.String())
			if err != nil {
				return nil, fmt.Errorf("id %s: %w", name, err)
			}
			tok = jsontext.String(hex.EncodeToString(raw))
		}
		name = ""
		if isName {
			name = tok.String()
		}
		if err := enc.WriteToken(tok); err != nil {
			return nil, err
		}
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n")), nil
}

// isObjectName reports whether the token just read was an object member
// name: inside an object, names are the odd-numbered tokens.
func isObjectName(dec *jsontext.Decoder) bool {
	kind, n := dec.StackIndex(dec.StackDepth())
	return kind == '{' && n%2 == 1
}

// seededIDs generates trace and span ids from a seed and a counter.
type seededIDs struct {
	mu   sync.Mutex
	seed uint64
	n    uint64
}

func newSeededIDs(seed string) *seededIDs {
	h := fnv.New64a()
	_, _ = io.WriteString(h, seed)
	return &seededIDs{seed: h.Sum64()}
}

func (g *seededIDs) next() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.n++
	// splitmix64 of seed+n: distinct, well spread, never zero in practice.
	z := g.seed + g.n*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31 | 1
}

// NewIDs implements sdktrace.IDGenerator.
func (g *seededIDs) NewIDs(context.Context) (trace.TraceID, trace.SpanID) {
	var t trace.TraceID
	binary.BigEndian.PutUint64(t[:8], g.next())
	binary.BigEndian.PutUint64(t[8:], g.next())
	return t, g.span()
}

// NewSpanID implements sdktrace.IDGenerator.
func (g *seededIDs) NewSpanID(context.Context, trace.TraceID) trace.SpanID { return g.span() }

func (g *seededIDs) span() trace.SpanID {
	var s trace.SpanID
	binary.BigEndian.PutUint64(s[:], g.next())
	return s
}
