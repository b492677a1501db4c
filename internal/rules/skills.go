package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
)

// Skills checks the Skills extension's entries in the session's catalog
// and every read the store checked against them (store.ResourceRead). It
// reads only snapshots (Finish) and keeps no state.
type Skills struct{}

// Check implements store.Check; the skill rules read only the catalog.
func (Skills) Check(*store.Frame, func(finding.Finding)) {}

// Finish raises the findings of the catalog's skill entries and reads,
// and of the server's declaration of the extension.
func (Skills) Finish(s *store.Snapshot, raise func(finding.Finding)) {
	if s.Catalog == nil {
		skillDeclarations(s, raise)
		return
	}
	for _, l := range s.Catalog.Lists {
		if l.Kind != store.KindSkill {
			continue
		}
		for i := range l.Definitions {
			d := &l.Definitions[i]
			if problems := SkillProblems(&d.Definition); len(problems) > 0 {
				f := finding.New(finding.SkillEntryInvalid, d.Seq, "skill %q: %s", d.Key, strings.Join(problems, "; "))
				f.Line = d.Line
				raise(f)
			}
		}
	}
	skillDeclarations(s, raise)
	for i := range s.Catalog.Reads {
		if f, ok := skillRead(&s.Catalog.Reads[i]); ok {
			f.Line = s.Catalog.Reads[i].Line
			raise(f.OfCall(s.Catalog.Reads[i].Call))
		}
	}
}

// skillRead returns the finding of one checked read; false when it has
// none (verified, dynamic, not a skill's file, or unreadable).
func skillRead(r *store.ResourceRead) (finding.Finding, bool) {
	const trust = "; a digest is no trust anchor: the same server supplies entry and content"
	switch r.Verdict {
	case store.SkillDigestMismatch:
		return finding.New(finding.SkillDigestMismatch, r.Seq, "resources/read of %q (skill %q) hashes to %s, but the entry lists %s%s",
			r.URI, r.Skill, r.Digest, digestText(r.WantDigest), trust), true
	case store.SkillSizeMismatch:
		return finding.New(finding.SkillSizeMismatch, r.Seq, "resources/read of %q (skill %q) is %d bytes, but the entry lists %d (digest %s, listed %s)",
			r.URI, r.Skill, r.Size, r.WantSize, r.Digest, digestText(r.WantDigest)), true
	case store.SkillUnlisted:
		return finding.New(finding.SkillUnlistedFile, r.Seq, "resources/read of %q, under skill %q, which its entry does not list",
			r.URI, r.Skill), true
	}
	return finding.Finding{}, false
}

// SkillProblems lists what breaks the shape of a skill entry (ext-skills
// § Skill Entries, § Resource Mapping); nil for a valid entry.
func SkillProblems(d *mcp.Definition) []string {
	var out []string
	root, isSkillMD := strings.CutSuffix(d.Key, "/SKILL.md")
	switch {
	case d.Key == "":
		out = append(out, "the entry has no uri")
	case !isSkillMD:
		out = append(out, "its uri does not name a SKILL.md")
	default:
		if seg := root[strings.LastIndexByte(root, '/')+1:]; seg != d.Name {
			out = append(out, fmt.Sprintf("the skill path ends in %q, but frontmatter.name is %q", seg, d.Name))
		}
	}
	sk := &d.Skill
	if sk.Problem != "" {
		return append(out, sk.Problem)
	}
	if sk.Dynamic {
		return out
	}
	self, bad := false, 0
	for _, f := range sk.Files {
		self = self || f.URI == d.Key
		if isSkillMD && f.URI != d.Key && !strings.HasPrefix(f.URI, root+"/") {
			out = append(out, fmt.Sprintf("file %q is outside the skill's directory", f.URI))
		}
		if !f.DigestOK || !f.SizeOK {
			bad++
		}
	}
	if !self && d.Key != "" {
		out = append(out, "resources does not list the SKILL.md itself")
	}
	if bad > 0 {
		out = append(out, fmt.Sprintf("%d of %d files lack a digest \"sha256:\" + 64 lowercase hex digits or a non-negative integer size", bad, len(sk.Files)))
	}
	return out
}

// skillDeclarations judges the server's declaration of the extension
// (ext-skills § Capability Negotiation), when its capabilities were seen:
// the resources capability it requires, and the directoryRead setting a
// client's resources/directory/read needs.
func skillDeclarations(s *store.Snapshot, raise func(finding.Finding)) {
	caps := s.Session.Server.Capabilities
	if caps == nil {
		return
	}
	d := mcp.ServerSkills(caps)
	dirReads := 0
	for _, m := range s.Summary.Methods {
		if m.Name == mcp.MethodResourcesDirectoryRead {
			dirReads = m.Count
		}
	}
	if (!d.Declared || d.Resources) && (d.DirectoryRead || dirReads == 0) {
		return
	}
	declared := false
	for i := range s.Calls.Len() {
		c := s.Calls.At(i)
		switch {
		case c.Dir != capture.C2S:
		case !declared && (c.Method == mcp.MethodInitialize || c.Method == mcp.MethodDiscover) && c.Status == store.StatusOK:
			declared = true
			if d.Declared && !d.Resources {
				f := finding.New(finding.SkillNoResourcesCap, c.ResponseSeq, "the server declares %s without the resources capability", mcp.ExtensionSkills)
				f.Line = s.Line(c.ResponseSeq)
				raise(f.OfCall(c.Index))
			}
		case c.Method == mcp.MethodResourcesDirectoryRead && !d.DirectoryRead:
			f := finding.New(finding.SkillDirectoryUndeclared, c.RequestSeq, "resources/directory/read of %q, but the server did not declare directoryRead: true", c.Target)
			f.Line = s.Line(c.RequestSeq)
			raise(f.OfCall(c.Index))
		}
	}
}

// digestText is a digest a server sent, as a message shows it: as sent
// when it is well formed, quoted otherwise (it may hold anything).
func digestText(d string) string {
	if mcp.ValidDigest(d) {
		return d
	}
	return strconv.Quote(d)
}
