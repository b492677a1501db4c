package textexport

import (
	"bufio"
	"fmt"

	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// writeReads writes the catalog's skill reads, one line each with what
// the check against the skill's entry found, and its UI resource reads.
// A catalog without any adds nothing.
func writeReads(w *bufio.Writer, c *store.Catalog) {
	if c == nil || len(c.Reads) == 0 {
		return
	}
	fmt.Fprintf(w, "\nresource reads (%d)\n", len(c.Reads))
	if c.ReadsOmitted > 0 {
		fmt.Fprintf(w, "  (%d more reads not kept)\n", c.ReadsOmitted)
	}
	for i := range c.Reads {
		r := &c.Reads[i]
		var what string
		switch {
		case r.Failed:
			what = "UI resource, failed"
		case r.Skill == "":
			what = "UI resource " + termtext.Escape(r.MimeType)
		case r.Verdict == store.SkillVerified:
			what = fmt.Sprintf("verified (%d bytes) against skill %s", r.Size, termtext.Escape(r.Skill))
		case r.Verdict == store.SkillDigestMismatch || r.Verdict == store.SkillSizeMismatch:
			what = fmt.Sprintf("%s: read %d bytes %s, listed %d bytes %s by skill %s", r.Verdict, r.Size, shortDigest(r.Digest),
				r.WantSize, shortDigest(termtext.Escape(r.WantDigest)), termtext.Escape(r.Skill))
		default:
			what = fmt.Sprintf("%s under skill %s", r.Verdict, termtext.Escape(r.Skill))
		}
		fmt.Fprintf(w, "  #%d %s: %s\n", r.Seq, catalogName(r.URI), what)
	}
}

// writeApps writes one line per app tool (a tool naming a UI resource):
// its resource and whether the host ever read it, the question an app
// that does not render is debugged with.
func writeApps(w *bufio.Writer, s *store.Snapshot) {
	apps := s.Apps()
	if len(apps) == 0 {
		return
	}
	fmt.Fprintf(w, "\napps (%d)\n", len(apps))
	for i := range apps {
		a := &apps[i]
		read := "never read"
		if a.Reads > 0 {
			read = fmt.Sprintf("read %s at #%d (%s)", plural(a.Reads, "time"), a.FirstRead, termtext.Escape(a.MimeType))
		}
		if a.Failed > 0 {
			read += fmt.Sprintf(", %s failed", plural(a.Failed, "read"))
		}
		flat := ""
		if a.Flat {
			flat = " (deprecated flat _meta key)"
		}
		fmt.Fprintf(w, "  %s → %s%s: %s; %s\n", catalogName(a.Tool), catalogName(a.ResourceURI), flat, read, plural(a.Calls, "call"))
	}
}

// shortDigest is "sha256:" and the first 12 hex digits of a digest.
func shortDigest(d string) string {
	if len(d) > 19 {
		return d[:19]
	}
	return d
}
