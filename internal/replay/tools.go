package replay

import (
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// This file decides, call by call, whether a tools/call may be sent
// without --allow-destructive. The server under test is the authority on
// its tools: its own tools/list in this replay decides when it lists the
// tool; else the capture's catalog; a tool neither lists is judged as one
// without annotations, which MCP assumes destructive. When a call is due
// and the server has not listed the tool (no listing yet, or more pages
// follow), the replay asks for its tools/list itself, page by page, as a
// client does before calling a tool; Compare leaves those requests out.

// Where a verdict on a tool comes from (Skipped.From).
const (
	FromServer  = "server"  // the server's tools/list in this replay
	FromCapture = "capture" // the capture's catalog
	FromNobody  = ""        // neither lists the tool
)

// maxListPages bounds the tools/list pages a replay asks for to judge one
// call; a server whose pages never end is then judged by the capture.
const maxListPages = 64

// Skipped is a tools/call the replay did not send because its tool may be
// destructive.
type Skipped struct {
	// Call is the index of the recorded call; Method and Target name it.
	Call   int
	Method string
	Target string
	// Hint is the judgement of the tool's annotations
	// (mcp.ToolDestructiveness); mcp.DestructiveByDefault when nobody
	// lists the tool.
	Hint mcp.Destructiveness
	// From says whose tools/list judged it: FromServer, FromCapture or
	// FromNobody.
	From string
	// Unlisted reports that the server's complete tools/list does not
	// list the tool, so the capture's word (or the default) was taken.
	Unlisted bool
}

// verdict is what is known of one tool: its judgement and from whom.
type verdict struct {
	hint     mcp.Destructiveness
	from     string
	unlisted bool
}

// recordedVerdictOf is the capture's verdict on tool; the default (a tool
// without annotations) when the capture does not list it.
func recordedVerdictOf(recorded map[string]mcp.Destructiveness, tool string) verdict {
	if h, ok := recorded[tool]; ok {
		return verdict{hint: h, from: FromCapture}
	}
	return verdict{hint: mcp.DestructiveByDefault, from: FromNobody}
}

// toolJudge holds what the server under test said of its tools in this
// replay. The zero value is not usable; see newToolJudge.
type toolJudge struct {
	recorded map[string]mcp.Destructiveness
	// live judges each tool of the server's current listing.
	live map[string]mcp.Destructiveness
	// started reports that the server answered the first page (no cursor)
	// of its current listing; complete that it also answered its last.
	started, complete bool
	// next is the nextCursor of the latest page; "" after the last.
	next string
	// given reports that asking the server for its list is pointless: it
	// answered one of the replay's own tools/list requests with an error,
	// or its pages did not end within maxListPages.
	given bool
}

func newToolJudge(recorded map[string]mcp.Destructiveness) *toolJudge {
	return &toolJudge{recorded: recorded, live: make(map[string]mcp.Destructiveness)}
}

// learn reads one tools/list answer (result) to a request with params: a
// first page starts a new listing, which replaces what earlier ones said.
func (j *toolJudge) learn(params, result jsontext.Value) {
	kind := mcp.ListKinds()[mcp.ListMethod(mcp.MethodToolsList)]
	if !mcp.HasCursor(params) {
		clear(j.live)
		j.started = true
	}
	page := mcp.ParseListPage(kind, result)
	for _, item := range page.Items {
		if d, ok := mcp.ParseDefinition(kind, item); ok && d.Key != "" {
			j.live[d.Key] = mcp.ToolDestructiveness(d.Annotations)
		}
	}
	j.next = page.NextCursor
	j.complete = j.started && j.next == ""
}

// changed forgets the listing: the server said its tools changed.
func (j *toolJudge) changed() {
	clear(j.live)
	j.started, j.complete, j.next = false, false, ""
}

// wants reports whether the server should be asked for (more of) its
// listing before tool is judged, and the cursor to ask with ("" for the
// first page).
func (j *toolJudge) wants(tool string) (string, bool) {
	if _, ok := j.live[tool]; ok || j.complete || j.given {
		return "", false
	}
	if j.started && j.next != "" {
		return j.next, true
	}
	return "", true
}

// verdict judges tool: by the server's listing when it lists the tool,
// else by the capture.
func (j *toolJudge) verdict(tool string) verdict {
	if h, ok := j.live[tool]; ok {
		return verdict{hint: h, from: FromServer}
	}
	v := recordedVerdictOf(j.recorded, tool)
	v.unlisted = j.complete
	return v
}

// allowed reports whether tools/call step st may be sent; when its tool may
// be destructive it says why in the Result. It first asks the server for
// its tools when they are not known yet.
func (d *driver) allowed(st *Step) (bool, error) {
	if err := d.listFor(st); err != nil {
		return false, fmt.Errorf("listing the server's tools: %w", err)
	}
	v := d.tools.verdict(st.Target)
	if !v.hint.Destructive() {
		return true, nil
	}
	d.res.Skipped = append(d.res.Skipped, Skipped{Call: st.Call, Method: st.Method, Target: st.Target,
		Hint: v.hint, From: v.from, Unlisted: v.unlisted})
	return false, nil
}

// listFor sends tools/list requests of its own, page after page, until the
// server lists st's tool or has no page left.
func (d *driver) listFor(st *Step) error {
	for pages := 0; ; pages++ {
		cursor, ok := d.tools.wants(st.Target)
		if !ok {
			return nil
		}
		if pages == maxListPages {
			d.tools.given = true
			return nil
		}
		d.ids++
		id := wire.IntID(d.ids)
		params := listParams(st.Params, cursor)
		if err := d.send(request(d.ids, mcp.MethodToolsList, params)); err != nil {
			return err
		}
		d.res.Requests++
		d.res.lists = append(d.res.lists, id)
		f, err := d.await(id, st, new(answerQueue))
		if err != nil {
			return err
		}
		if f.Kind != wire.KindResponse {
			d.tools.given = true
			return nil
		}
		d.tools.learn(params, f.Result)
	}
}

// listParams are the params of a tools/list sent for a call with params
// callParams: the cursor when not "", and the call's per-request _meta
// (2026-07-28: version, capabilities, identity) when it has one.
func listParams(callParams jsontext.Value, cursor string) jsontext.Value {
	var ms []member
	if cursor != "" {
		ms = append(ms, member{"cursor", quote(cursor)})
	}
	var meta []member
	for _, m := range members(mcp.Meta(callParams)) {
		switch m.name {
		case mcp.MetaProtocolVersion, mcp.MetaClientCapabilities, mcp.MetaClientInfo:
			meta = append(meta, m)
		}
	}
	if len(meta) > 0 {
		ms = append(ms, member{mcp.MemberMeta, withMembers(jsontext.Value(`{}`), meta)})
	}
	return object(ms)
}
