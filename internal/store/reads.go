package store

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/mcp"
)

// The resources/read answers the catalog keeps: those that read a file of
// a skill the catalog holds (checked against the held entry's digest and
// size, ext-skills specification/stable/skills.mdx § Verification on
// Read), and those that read a UI resource (ext-apps
// specification/draft/apps.mdx § Resource Discovery: "the host MUST use
// resources/read"), so that a view can tell whether an app tool's UI was
// ever fetched. Other reads are not kept.

// Skill read verdicts (ResourceRead.Verdict).
const (
	SkillVerified       = "verified"        // digest and size match the held entry
	SkillDigestMismatch = "digest-mismatch" // the size matches, the digest does not
	SkillSizeMismatch   = "size-mismatch"   // the byte length differs (a digest mismatch too, § Resources)
	SkillUnlisted       = "unlisted"        // a file under the skill's root its entry does not list
	SkillDynamic        = "dynamic"         // the entry's resources is "dynamic": nothing to verify
	SkillUnreadable     = "unreadable"      // the content had no text or blob that could be decoded
)

// ResourceRead is one content item of a resources/read answer the catalog
// keeps. It holds the digest and size of the bytes read, never the bytes.
type ResourceRead struct {
	// Seq and Line locate the response; Call is the resources/read call.
	Seq  uint64
	Line int
	Call int
	// URI is the content item's uri (the request's when the item has
	// none); MimeType its mimeType.
	URI      string
	MimeType string
	// Failed reports that the read was answered with an error (kept only
	// for UI resources); the members below are then zero.
	Failed bool
	// Size and Digest ("sha256:" and hex) are of the content's raw bytes;
	// zero when Verdict is SkillUnreadable.
	Size   int64
	Digest string
	// Skill is the key (the SKILL.md uri) of the skill whose held entry
	// the read was checked against, "" for a UI resource read; Verdict
	// says how it compared (Skill* constants); WantDigest and WantSize are
	// the entry's (empty for SkillUnlisted and SkillDynamic).
	Skill      string
	Verdict    string
	WantDigest string
	WantSize   int64
	// UI reports a UI resource: a ui:// uri, the MCP Apps mimeType, or the
	// resource a listed tool names.
	UI bool
}

// readState is the store's index of the skills' files, rebuilt from the
// skills list when it changed.
type readState struct {
	// files maps a listed file's uri to the skill entry that lists it;
	// roots lists each skill's root directory (its uri without
	// "/SKILL.md"); stale is set when the skills list changed since.
	files map[string]heldFile
	roots []heldRoot
	stale bool
}

type heldFile struct {
	skill string
	file  mcp.SkillFile
}

type heldRoot struct {
	root, skill string
	dynamic     bool
}

// resourceRead keeps the content items of a resources/read answer that
// read a skill's file or a UI resource.
func (s *Store) resourceRead(c *Call, seq uint64, result jsontext.Value) {
	if s.cat.reads.stale || s.cat.reads.files == nil {
		s.cat.reads.index(s.cat.published)
	}
	var kept []ResourceRead
	switch c.Status {
	case StatusError: // an MRTR interim result is not an answer yet
		if s.isUIResource(c.Target, "") {
			kept = append(kept, ResourceRead{Seq: seq, Call: c.Index, URI: c.Target, Failed: true, UI: true})
		}
	case StatusOK:
		for _, item := range mcp.ReadContents(result) {
			if r, ok := s.readOf(c, seq, &item); ok {
				kept = append(kept, r)
			}
		}
	}
	if len(kept) == 0 {
		return
	}
	line := s.lineOf(seq)
	for i := range kept {
		kept[i].Line = line
	}
	s.cat.answering = c.Index
	s.publishReads(kept)
}

// readOf makes the ResourceRead of one content item; false when the item
// reads neither a skill's file nor a UI resource.
func (s *Store) readOf(c *Call, seq uint64, item *mcp.ResourceContent) (ResourceRead, bool) {
	uri := item.URI
	if uri == "" {
		uri = c.Target
	}
	r := ResourceRead{Seq: seq, Call: c.Index, URI: uri, MimeType: item.MimeType, UI: s.isUIResource(uri, item.MimeType)}
	if item.OK {
		sum := sha256.Sum256(item.Bytes)
		r.Size, r.Digest = int64(len(item.Bytes)), "sha256:"+hex.EncodeToString(sum[:])
	}
	held, listed := s.cat.reads.files[uri]
	switch {
	case listed:
		r.Skill, r.WantDigest, r.WantSize = held.skill, held.file.Digest, held.file.Size
		r.Verdict = verdict(item.OK, &r, &held.file)
	default:
		root, ok := s.cat.reads.rootOf(uri)
		if !ok {
			return r, r.UI
		}
		r.Skill, r.Verdict = root.skill, SkillUnlisted
		if root.dynamic {
			r.Verdict = SkillDynamic
		}
	}
	return r, true
}

// verdict compares what was read with the held entry's file.
func verdict(ok bool, r *ResourceRead, f *mcp.SkillFile) string {
	switch {
	case !ok:
		return SkillUnreadable
	case !f.SizeOK || r.Size != f.Size:
		return SkillSizeMismatch
	case r.Digest != f.Digest:
		return SkillDigestMismatch
	}
	return SkillVerified
}

// isUIResource reports whether a read of uri (answered with mimeType)
// reads a UI resource.
func (s *Store) isUIResource(uri, mimeType string) bool {
	if mcp.IsUIResource(uri) || mcp.IsAppMimeType(mimeType) {
		return true
	}
	if l := s.cat.published.list(KindTool); l != nil {
		for i := range l.Definitions {
			if l.Definitions[i].UI.ResourceURI == uri && uri != "" {
				return true
			}
		}
	}
	return false
}

// index rebuilds the file index from the catalog's skills list. A file
// two entries list (a nested skill's) is held under the later entry.
func (rs *readState) index(c *Catalog) {
	rs.files, rs.roots, rs.stale = map[string]heldFile{}, nil, false
	l := c.list(KindSkill)
	if l == nil {
		return
	}
	for i := range l.Definitions {
		d := &l.Definitions[i]
		if root, ok := strings.CutSuffix(d.Key, "/SKILL.md"); ok {
			rs.roots = append(rs.roots, heldRoot{root: root, skill: d.Key, dynamic: d.Skill.Dynamic})
		}
		for _, f := range d.Skill.Files {
			rs.files[f.URI] = heldFile{skill: d.Key, file: f}
		}
	}
}

// rootOf returns the skill whose root directory holds uri, the innermost
// when skills nest; false when none does.
func (rs *readState) rootOf(uri string) (heldRoot, bool) {
	var best heldRoot
	found := false
	for _, r := range rs.roots {
		if strings.HasPrefix(uri, r.root+"/") && (!found || len(r.root) > len(best.root)) {
			best, found = r, true
		}
	}
	return best, found
}

// list returns the catalog's list of kind; nil when c is nil or has none.
func (c *Catalog) list(kind string) *CatalogList {
	if c == nil {
		return nil
	}
	for i := range c.Lists {
		if c.Lists[i].Kind == kind {
			return &c.Lists[i]
		}
	}
	return nil
}

// maxReads bounds Catalog.Reads, so that a host reading the same UI
// resource without end costs no more memory than a session's calls do.
const maxReads = 10000

// publishReads makes a new catalog with reads appended; past maxReads
// they are only counted.
func (s *Store) publishReads(reads []ResourceRead) {
	c := &Catalog{}
	if old := s.cat.published; old != nil {
		*c = *old
	}
	n := min(len(reads), max(0, maxReads-len(c.Reads)))
	// Appending never writes inside an older catalog's length.
	c.Reads = append(c.Reads, reads[:n]...)
	c.ReadsOmitted += len(reads) - n
	s.catalogChanged(c, nil)
}
