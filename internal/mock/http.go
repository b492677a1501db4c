package mock

import (
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/mcptrail/mcptrail/internal/admit"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// maxBody bounds a POST body the mock reads.
const maxBody = 64 << 20

// Handler returns the mock as a Streamable HTTP endpoint, on every path,
// for clients of both eras: a request POST is answered with JSON, or with
// an SSE stream when the call carries a legacy server request; a
// notification or an answer POST gets 202. A successful initialize is
// given an Mcp-Session-Id (2025 era); DELETE with it ends the session.
// GET (the legacy standalone stream) gets 405, which clients accept. An
// answer recorded with an HTTP error status is served with that status,
// its body as recorded when its id is null (a 2025 server's 400 to a
// server/discover probe), else with the live id.
// Every request passes policy first (admit.Policy.Handler, a POST must be
// JSON): a foreign Host or Origin gets 403, a POST that is not JSON 415. A
// nil policy accepts any Host and loopback origins only.
func (m *Mock) Handler(policy *admit.Policy) http.Handler {
	if policy == nil {
		policy, _ = admit.New(nil) // never fails without origins
	}
	return policy.Handler(&httpHandler{m: m, sessions: map[string]bool{}}, true)
}

type httpHandler struct {
	m        *Mock
	mu       sync.Mutex
	n        int
	sessions map[string]bool
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
		h.post(w, r)
	case http.MethodDelete:
		if h.endSession(r.Header.Get("Mcp-Session-Id")) {
			w.WriteHeader(http.StatusOK)
			return
		}
		fallthrough
	default:
		w.Header().Set("Allow", "POST, DELETE")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

func (h *httpHandler) endSession(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if id == "" || !h.sessions[id] {
		return false
	}
	delete(h.sessions, id)
	return true
}

func (h *httpHandler) newSession() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.n++
	id := fmt.Sprintf("mcptrail-mock-%s-s%d", h.m.nonce, h.n)
	h.sessions[id] = true
	return id
}

func (h *httpHandler) post(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil || len(body) > maxBody {
		http.Error(w, "reading the body failed or it is too large", http.StatusBadRequest)
		return
	}
	f := wire.Decode(body)
	if f.Kind != wire.KindRequest {
		st := newStream()
		h.m.Serve(body, st)
		if msgs, _ := st.take(); len(msgs) > 0 { // the mock's error for an invalid message
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write(msgs[0])
			return
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	st := newStream()
	h.m.Serve(body, st)
	msgs, final := st.take()
	if final && len(msgs) == 1 {
		if f.Method == mcp.MethodInitialize && wire.Decode(msgs[0]).Kind == wire.KindResponse {
			w.Header().Set("Mcp-Session-Id", h.newSession())
		}
		status := st.recorded()
		if status == 0 {
			status = statusOf(r, msgs[0])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(msgs[0])
		return
	}
	h.stream(w, r, st, msgs, final)
}

// stream answers a request with an SSE stream: the messages so far, then
// each the mock sends until the final one or the client goes away.
func (h *httpHandler) stream(w http.ResponseWriter, r *http.Request, st *stream, msgs [][]byte, final bool) {
	defer st.close()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	rc := http.NewResponseController(w)
	for {
		for _, msg := range msgs {
			if _, err := fmt.Fprintf(w, "event: message\ndata: %s\n\n", msg); err != nil {
				return
			}
		}
		if err := rc.Flush(); err != nil || final {
			return
		}
		select {
		case <-st.wake:
		case <-r.Context().Done():
			return
		}
		msgs, final = st.take()
	}
}

// stream is a Sender that queues one request's answer for its HTTP
// response; once closed (the response is over) it drops what it is sent.
type stream struct {
	mu     sync.Mutex
	msgs   [][]byte
	final  bool
	closed bool
	wake   chan struct{}
	// status is the HTTP status the final answer was recorded with
	// (SendStatus); 0 leaves it to statusOf.
	status int
}

func newStream() *stream { return &stream{wake: make(chan struct{}, 1)} }

func (s *stream) Send(msg []byte, final bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.msgs = append(s.msgs, msg)
	s.final = s.final || final
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// SendStatus sends the final answer msg, to be served with the HTTP
// status it was recorded with.
func (s *stream) SendStatus(msg []byte, status int) {
	s.mu.Lock()
	if !s.closed {
		s.status = status
	}
	s.mu.Unlock()
	s.Send(msg, true)
}

// recorded is the status SendStatus gave; 0 when none.
func (s *stream) recorded() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status
}

func (s *stream) take() ([][]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	msgs := s.msgs
	s.msgs = nil
	return msgs, s.final
}

func (s *stream) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
}

// statusOf is the HTTP status of a request's single JSON answer: 404 for a
// 2026-07-28 request whose method the mock does not know (the spec pins
// 404 plus -32601 so a modern client tells it from a legacy 404), else 200.
// A legacy client reads 404 as "session gone", so it keeps 200.
func statusOf(r *http.Request, answer []byte) int {
	if r.Header.Get("MCP-Protocol-Version") != mcp.Version20260728 {
		return http.StatusOK
	}
	if f := wire.Decode(answer); f.Kind == wire.KindError && f.ErrorCode == CodeUnknownMethod {
		return http.StatusNotFound
	}
	return http.StatusOK
}
