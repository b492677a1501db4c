package corpus

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/mcptrail/mcptrail/internal/transcript"
)

// sinkCapture is what the live sinks of one proxy run received: the
// bodies POSTed to --events-url, and the OTLP requests a real receiver
// (HTTP/protobuf on loopback) decoded, as protobuf JSON.
type sinkCapture struct {
	mu   sync.Mutex
	http bytes.Buffer
	otlp bytes.Buffer
}

func (c *sinkCapture) eventsHandler(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	c.http.Write(b)
	c.http.WriteByte('\n')
	c.mu.Unlock()
}

func (c *sinkCapture) otlpHandler(m func() proto.Message) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		msg := m()
		b, err := io.ReadAll(r.Body)
		if err == nil {
			err = proto.Unmarshal(b, msg)
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		j, _ := protojson.Marshal(msg)
		c.mu.Lock()
		c.otlp.Write(j)
		c.otlp.WriteByte('\n')
		c.mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(nil)
	}
}

// runLiveSinks plays a transcript through the proxy with --events-url and
// --otlp-endpoint pointed at local servers, plus args (--events-content,
// --redact-*), and returns what each received.
func runLiveSinks(t *testing.T, tr *transcript.Transcript, path string, args ...string) (httpGot, otlpGot string) {
	t.Helper()
	c := &sinkCapture{}
	events := httptest.NewServer(http.HandlerFunc(c.eventsHandler))
	defer events.Close()
	mux := http.NewServeMux()
	mux.Handle("POST /v1/traces", c.otlpHandler(func() proto.Message { return &coltrace.ExportTraceServiceRequest{} }))
	mux.Handle("POST /v1/logs", c.otlpHandler(func() proto.Message { return &collogs.ExportLogsServiceRequest{} }))
	otlp := httptest.NewServer(mux)
	defer otlp.Close()
	argv := append([]string{"--no-capture", "--events-url", events.URL, "--otlp-endpoint", otlp.URL}, args...)
	stderr := playThroughProxy(t, tr, path, argv...)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.http.Len() == 0 || c.otlp.Len() == 0 {
		t.Fatalf("the sinks received nothing (http %d bytes, otlp %d bytes)\n%s", c.http.Len(), c.otlp.Len(), stderr)
	}
	return c.http.String(), c.otlp.String()
}
