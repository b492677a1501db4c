package mcpserve

import (
	"context"
	stdjson "encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	textexport "github.com/mcptrail/mcptrail/internal/export/text"
	"github.com/mcptrail/mcptrail/internal/session"
	"github.com/mcptrail/mcptrail/internal/store"
)

// MaxResource bounds a resource's text: a session's report or one frame
// longer than this is cut, and says so at its end.
const MaxResource = 1 << 20

// reportWidth is the width a report's tables are cut to: export -T
// text's off a terminal.
const reportWidth = 100

// The resource templates.
const (
	reportTemplate = "mcptrail://sessions/{id}"
	frameTemplate  = "mcptrail://sessions/{id}/frames/{seq}"
)

// FrameURI is the resource of frame seq of session id: the frame whole,
// where the call tool cuts its long strings.
func FrameURI(id string, seq uint64) string {
	return "mcptrail://sessions/" + url.PathEscape(id) + "/frames/" + strconv.FormatUint(seq, 10)
}

func (s *Server) addResources(srv *mcp.Server) {
	srv.AddResourceTemplate(&mcp.ResourceTemplate{Name: "session-report", Title: "A session's text report", URITemplate: reportTemplate,
		MIMEType: "text/plain", Description: "The session's report as `mcptrail export -T text` writes it: session, summary, operations, " +
			"elicitation ledger (never a submitted value), findings, calls, catalog, stderr and one line per frame. {id} is a session id " +
			"or unique id prefix. Cut at 1 MiB."}, s.readResource)
	srv.AddResourceTemplate(&mcp.ResourceTemplate{Name: "session-frame", Title: "One frame whole", URITemplate: frameTemplate,
		MIMEType: "application/json", Description: "Frame {seq} of session {id} whole, as captured (redacted as configured, an " +
			"elicitation answer's values replaced): what the call tool gives as a frame's uri when it cuts its strings. Cut at 1 MiB."}, s.readResource)
}

// parseURI reads a resource URI: mcptrail://sessions/ID (the report) or
// mcptrail://sessions/ID/frames/SEQ (frame is then set), ID path-escaped
// as FrameURI writes it.
func parseURI(uri string) (id string, seq uint64, frame bool, err error) {
	bad := fmt.Errorf("want mcptrail://sessions/ID or mcptrail://sessions/ID/frames/SEQ")
	rest, ok := strings.CutPrefix(uri, "mcptrail://sessions/")
	if !ok || rest == "" {
		return "", 0, false, bad
	}
	id, seqText, frame := strings.Cut(rest, "/frames/")
	id, err = url.PathUnescape(id)
	if err != nil || id == "" || strings.Contains(id, "/") {
		return "", 0, false, bad
	}
	if frame {
		if seq, err = strconv.ParseUint(seqText, 10, 64); err != nil {
			return "", 0, false, fmt.Errorf("frame %q: want a frame's seq, as the call tool gives it", cut(seqText, 32))
		}
	}
	return id, seq, frame, nil
}

// readResource answers both templates.
func (s *Server) readResource(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	id, seq, frame, err := parseURI(uri)
	if err != nil {
		return nil, notFound(uri, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var c *mcp.ResourceContents
	if frame {
		c, err = s.frameResource(uri, id, seq)
		if err != nil {
			return nil, err
		}
	} else {
		text, err := s.report(uri, id)
		if err != nil {
			return nil, err
		}
		c = &mcp.ResourceContents{URI: uri, MIMEType: "text/plain", Text: text}
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
}

// report is the session's `export -T text` report, redacted as
// configured, cut at MaxResource.
func (s *Server) report(uri, arg string) (string, error) {
	r, f, err := s.open(arg)
	if err != nil {
		return "", notFound(uri, err)
	}
	defer f.Close()
	if s.opts.Redactor != nil {
		s.opts.Redactor.Reset()
	}
	var out capped
	hdr := session.Header(r, s.opts.Redactor)
	tw := textexport.New(&out, hdr, nil)
	defer tw.Close()
	tw.SetLayout(textexport.Layout{Width: reportWidth})
	sess, err := session.Load(r, &session.Options{OnFrame: tw.Frame, Rules: s.rules(), Header: hdr, Redactor: s.opts.Redactor})
	if err != nil {
		return "", fmt.Errorf("reading session %q: %w", cut(arg, 64), err)
	}
	tw.SetAuth(&sess.Auth)
	if err := tw.Finish(sess.Snapshot); err != nil {
		return "", err
	}
	return out.text(), nil
}

// frameResource is frame seq of the session, whole but cut at
// MaxResource, as the call tool reads it.
func (s *Server) frameResource(uri, arg string, seq uint64) (*mcp.ResourceContents, error) {
	rows, snap, err := s.frames(arg, func(f *store.Frame) bool { return f.Seq == seq })
	if err != nil {
		return nil, notFound(uri, err)
	}
	if len(rows) == 0 {
		return nil, notFound(uri, fmt.Errorf("session %s has no frame #%d", snap.Session.ID, seq))
	}
	var out capped
	mime := "application/json"
	if r := &rows[0]; len(r.Msg) > 0 {
		out.Write(r.Msg)
	} else {
		mime = "text/plain"
		out.Write([]byte(r.Text))
	}
	return &mcp.ResourceContents{URI: uri, MIMEType: mime, Text: out.text()}, nil
}

// notFound is the resource-not-found error of uri (-32602, as the SDK gives it)
// with why, escaped and bounded, in its message, so an agent reads what to
// pass instead.
func notFound(uri string, why error) error {
	data, _ := stdjson.Marshal(map[string]string{"uri": uri})
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Resource not found: " + show(why.Error(), 512), Data: data}
}

// capped is a writer that keeps the first MaxResource bytes written and
// counts the rest.
type capped struct {
	b     []byte
	total int
}

func (c *capped) Write(p []byte) (int, error) {
	c.total += len(p)
	if room := MaxResource - len(c.b); room > 0 {
		c.b = append(c.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// text is what was kept, valid UTF-8, with a last line saying how much
// was cut.
func (c *capped) text() string {
	s := strings.ToValidUTF8(string(c.b), "\uFFFD")
	if c.total > len(c.b) {
		s += fmt.Sprintf("\n…[cut: %d bytes in all; the tools answer in parts]\n", c.total)
	}
	return s
}
