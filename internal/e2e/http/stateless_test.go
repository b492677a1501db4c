package http_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// statelessCall is one modern tools/call of a client.
type statelessCall struct {
	client string // "alpha" (answered as JSON) or "beta" (answered on SSE)
	id     int
}

func (c statelessCall) body() string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{},`+
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, c.id, c.client)
}

// answer is what the target answers: the tool's name and the id, so the
// test can tell whose answer a frame is.
func (c statelessCall) answer() string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"resultType":"complete","content":[{"type":"text","text":"%s-%d"}]}}`, c.id, c.client, c.id)
}

// sequencedTarget answers the calls in order: each handler waits until
// every call arrived and the client received the previous answer (closed
// received[c]; the proxy records an answer before it forwards it). Alpha's
// answers are JSON, beta's SSE.
func sequencedTarget(t *testing.T, order []statelessCall, received map[statelessCall]chan struct{}) *httptest.Server {
	t.Helper()
	var arrived sync.WaitGroup
	arrived.Add(len(order))
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var msg struct {
			ID     int `json:"id"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		if err := json.Unmarshal(b, &msg); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		c := statelessCall{msg.Params.Name, msg.ID}
		arrived.Done()
		arrived.Wait()
		i := indexOf(order, c)
		if i > 0 {
			<-received[order[i-1]]
		}
		if c.client == "beta" {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "event: message\ndata: "+c.answer()+"\n\n")
		} else {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, c.answer())
		}
		w.(http.Flusher).Flush()
	}))
}

// readUntil reads r until what it read contains want, and returns what
// it read; reaching the end first is io.ErrUnexpectedEOF.
func readUntil(r io.Reader, want string) ([]byte, error) {
	var b []byte
	buf := make([]byte, 4096)
	for !strings.Contains(string(b), want) {
		n, err := r.Read(buf)
		b = append(b, buf[:n]...)
		if strings.Contains(string(b), want) {
			break
		}
		if errors.Is(err, io.EOF) {
			return b, io.ErrUnexpectedEOF
		}
		if err != nil {
			return b, err
		}
	}
	return b, nil
}

func indexOf(order []statelessCall, c statelessCall) int {
	for i, o := range order {
		if o == c {
			return i
		}
	}
	panic(fmt.Sprintf("unexpected call %+v", c))
}

// TestStatelessIDCollision: two stateless clients on their own
// connections send calls with the same ids at the same time; the target
// answers them in another order, one client as JSON, the other on SSE. In
// the export every call is answered by the frame that carries its own
// answer, and the shared ids raise no finding.
func TestStatelessIDCollision(t *testing.T) {
	t.Parallel()
	order := []statelessCall{{"beta", 1}, {"alpha", 2}, {"alpha", 1}, {"beta", 2}}
	received := make(map[statelessCall]chan struct{}, len(order))
	for _, c := range order {
		received[c] = make(chan struct{})
	}
	target := sequencedTarget(t, order, received)
	defer target.Close()
	tp := startTap(t, target.URL+"/mcp")
	var wg sync.WaitGroup
	for _, client := range []string{"alpha", "beta"} {
		hc := &http.Client{Transport: &http.Transport{}} // a connection of its own per client
		defer hc.CloseIdleConnections()
		for _, id := range []int{1, 2} {
			wg.Go(func() {
				c := statelessCall{client, id}
				// A call that fails still lets the target answer the next.
				markReceived := sync.OnceFunc(func() { close(received[c]) })
				defer markReceived()
				req, err := http.NewRequest(http.MethodPost, tp.url("/mcp"), strings.NewReader(c.body()))
				if err != nil {
					t.Error(err)
					return
				}
				for k, v := range modernHeaders("Mcp-Name", client) {
					req.Header.Set(k, v)
				}
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				resp, err := hc.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				defer resp.Body.Close()
				b, err := readUntil(resp.Body, c.answer())
				markReceived()
				if err != nil {
					t.Errorf("%s id %d: reading the answer: %v (got %q)", client, id, err, b)
					return
				}
				if _, err := io.Copy(io.Discard, resp.Body); err != nil {
					t.Errorf("%s id %d: reading the rest: %v", client, id, err)
				}
			})
		}
	}
	wg.Wait()
	tp.stop(t)
	export := runExport(t, tp.capture)
	var x struct {
		Frames []struct {
			Seq uint64         `json:"seq"`
			Msg jsontext.Value `json:"msg"`
		} `json:"frames"`
		Calls []struct {
			ID          jsontext.Value `json:"id"`
			Target      string         `json:"target"`
			Status      string         `json:"status"`
			ResponseSeq uint64         `json:"response_seq"`
		} `json:"calls"`
	}
	if err := json.Unmarshal(export, &x); err != nil {
		t.Fatal(err)
	}
	msgAt := make(map[uint64]string)
	for _, f := range x.Frames {
		msgAt[f.Seq] = string(f.Msg)
	}
	if len(x.Calls) != len(order) {
		t.Fatalf("%d calls, want %d", len(x.Calls), len(order))
	}
	for _, c := range x.Calls {
		want := fmt.Sprintf(`"text":"%s-%s"`, c.Target, c.ID)
		if c.Status != "ok" || !strings.Contains(msgAt[c.ResponseSeq], want) {
			t.Errorf("call %s id %s: status %s, answered by seq %d %s; want the frame holding %s",
				c.Target, c.ID, c.Status, c.ResponseSeq, msgAt[c.ResponseSeq], want)
		}
	}
	if f := exportFindings(t, export); len(f) != 0 {
		t.Errorf("findings %v, want none", f)
	}
}
