package store

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
)

// The catalog is what the server said it offers: the definitions of the
// session's tools/list, prompts/list, resources/list and
// resources/templates/list results (every page), and how they changed
// between listings. Pages come from the answers of client calls the store
// paired; nothing is re-correlated here (catalog_list.go applies a page).
//
// A published Catalog is never modified: each change builds a new one that
// shares what did not change (the Changes backing array is only appended
// to), so a Snapshot hands out the pointer as it is.

// Definition kinds, one per list method.
const (
	KindTool             = "tool"              // tools/list
	KindPrompt           = "prompt"            // prompts/list
	KindResource         = "resource"          // resources/list
	KindResourceTemplate = "resource-template" // resources/templates/list
	KindSkill            = "skill"             // skills/list and skills/get (the Skills extension)
)

// Catalog changes.
const (
	ChangeAdded   = "added"
	ChangeRemoved = "removed"
	ChangeChanged = "changed"
)

// Catalog is the session's catalog. A nil *Catalog means the client never
// got a list result. It is read-only: the store shares it between
// snapshots. Two catalogs (of two sessions, say) compare definition by
// definition on (Kind, Key), equal when their Hash is.
type Catalog struct {
	// Lists holds one entry per list method that answered at least one
	// page, in the order tools, prompts, resources, resource templates.
	Lists []CatalogList
	// Changes lists, in seq order, what each listing after a kind's first
	// one added, removed or changed. The first listing of a kind is its
	// baseline and adds no change.
	Changes []CatalogChange
	// Reads lists, in seq order, the resources/read answers that read a
	// file of a skill the catalog holds, checked against its entry, or a
	// UI resource (reads.go).
	Reads []ResourceRead
	// ReadsOmitted counts the reads past the first 10000, which are not
	// kept (nor checked).
	ReadsOmitted int
}

// CatalogList is the current state of one list.
type CatalogList struct {
	// Method is the list method ("tools/list"); Kind names its definitions
	// (KindTool ...).
	Method string
	Kind   string
	// Seq is the seq of the latest page's response; Pages counts the pages
	// read over the whole session.
	Seq   uint64
	Pages int
	// Complete reports whether the latest listing was read from its first
	// page (a request without cursor) to a page without nextCursor. Only a
	// complete listing can tell that a definition was removed.
	Complete bool
	// Definitions holds the current definitions, in the order the latest
	// complete listing gave them (definitions listed since are appended).
	Definitions []Definition
}

// Definition is one tool, prompt, resource or resource template: what
// mcp.ParseDefinition read of it (Key is the name of a tool or prompt, the
// uri of a resource, the uriTemplate of a template; its raw members are
// the store's own copies), with its hash and where it was listed.
type Definition struct {
	mcp.Definition
	// Hash is DefinitionHash of the whole definition as listed.
	Hash string
	// Seq is the seq of the response that first listed this version of
	// the definition (this Hash).
	Seq uint64
	// Line is the capture file line of the response at Seq; zero when
	// unknown (a live or in-memory record).
	Line int
	// Size is the length in bytes of the definition's JSON as that
	// response listed it.
	Size int
}

// CatalogChange is one definition added, removed or changed by a listing.
type CatalogChange struct {
	// Seq is the seq of the response whose page showed the change; for a
	// removal, the page that completed the listing without it.
	Seq uint64
	// Line is the capture file line of the response at Seq; zero when
	// unknown.
	Line int
	Kind string
	Key  string
	// Change is ChangeAdded, ChangeRemoved or ChangeChanged.
	Change string
	// Hash is the definition's new hash ("" when removed); PrevHash its
	// hash before ("" when added).
	Hash     string
	PrevHash string
	// Notified is the seq of the list_changed notification the listing
	// followed; zero when the server sent none since the listing before.
	Notified uint64
}

// DefinitionHash returns the hex SHA-256 of a definition's JSON in the
// canonical form of RFC 8785 (JCS): object members sorted by name, no
// insignificant whitespace, strings and numbers in one spelling. The same
// definition therefore hashes alike in any session, whatever its member
// order or layout. Duplicate member names and invalid UTF-8 in escapes are
// canonicalised as they are; a value that cannot be canonicalised at all
// is hashed as sent.
func DefinitionHash(raw []byte) string {
	h, _ := definitionHash(nil, raw)
	return h
}

// definitionHash is DefinitionHash using buf as scratch space; it returns
// the buffer for the next call.
func definitionHash(buf, raw []byte) (string, []byte) {
	v := jsontext.Value(append(buf[:0], raw...))
	sum := sha256.Sum256(raw)
	if err := v.Canonicalize(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)); err == nil {
		sum = sha256.Sum256(v)
	}
	return hex.EncodeToString(sum[:]), v
}

// catalogState is the store's catalog bookkeeping.
type catalogState struct {
	// published is the catalog as of the latest page; nil before any.
	published *Catalog
	lists     [5]listState
	// reads is what resources/read answers showed (reads.go).
	reads readState
	// cursored holds the list calls whose request carried a cursor, until
	// they are answered.
	cursored map[int]struct{}
	scratch  []byte
	// answering is the index of the list call whose page is being applied.
	answering int
}

// listState is what the store keeps to apply the pages of one list.
type listState struct {
	// listed is set once a page was applied; listings counts the listings
	// started (the first is the baseline).
	listed   bool
	listings int
	// index maps a key to its position in the published Definitions.
	index map[string]int
	// open is set while a listing that began with a first page runs; seen
	// and order hold the keys it listed.
	open  bool
	seen  map[string]struct{}
	order []string
	// pending is the seq of a list_changed not yet followed by a listing;
	// notified is the one the running listing follows.
	pending  uint64
	notified uint64
}

// kindNames names the definitions of each list, in mcp.ListKinds order.
func kindNames() [5]string {
	return [5]string{KindTool, KindPrompt, KindResource, KindResourceTemplate, KindSkill}
}

// catalogRequest notes whether a client list request asks for a later
// page (it carries a cursor).
func (s *Store) catalogRequest(c *Call, params jsontext.Value) {
	if mcp.ListMethod(c.Method) < 0 || !mcp.HasCursor(params) {
		return
	}
	if s.cat.cursored == nil {
		s.cat.cursored = make(map[int]struct{})
	}
	s.cat.cursored[c.Index] = struct{}{}
}

// catalogAnswered applies the answer of a client list call, when it is a
// final result, as one page of its list; a skills/get result updates its
// skill (skills.go), and a resources/read is checked against the skills
// and app tools the catalog holds (reads.go).
func (s *Store) catalogAnswered(c *Call, seq uint64, result jsontext.Value) {
	if c.Dir == capture.C2S {
		switch {
		case c.Method == mcp.MethodSkillsGet && c.Status == StatusOK:
			s.skillAnswered(c, seq, result)
			return
		case c.Method == mcp.MethodResourcesRead:
			s.resourceRead(c, seq, result) // an error too, for a UI resource
			return
		}
	}
	i := mcp.ListMethod(c.Method)
	if i < 0 || c.Dir != capture.C2S {
		return
	}
	_, later := s.cat.cursored[c.Index]
	delete(s.cat.cursored, c.Index)
	if c.Status != StatusOK {
		return
	}
	k := mcp.ListKinds()[i]
	s.cat.answering = c.Index
	s.applyPage(i, seq, !later, mcp.ParseListPage(k, result))
}

// catalogNotified records a list_changed notification from the server.
func (s *Store) catalogNotified(r *capture.Record, method string) {
	if r.Dir != capture.S2C {
		return
	}
	switch method {
	case mcp.MethodToolsListChanged:
		s.cat.lists[0].pending = r.Seq
	case mcp.MethodPromptsListChanged:
		s.cat.lists[1].pending = r.Seq
	case mcp.MethodResourcesListChanged: // resources and their templates
		s.cat.lists[2].pending = r.Seq
		s.cat.lists[3].pending = r.Seq
	}
}

// catalogChanged publishes a new catalog. It is the one place the catalog
// changes: every page applied ends here, with the changes it made (none
// for a baseline page or a page that repeated the list). It reports the
// change on the feed as the list call that brought it.
func (s *Store) catalogChanged(c *Catalog, changes []CatalogChange) {
	_ = changes
	s.cat.published = c
	s.emit(ChangeCatalog, s.cat.answering, -1, -1)
}
