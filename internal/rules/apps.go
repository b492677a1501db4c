package rules

import (
	"fmt"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
)

// Apps checks the MCP Apps tools of the session's catalog and the reads
// of their UI resources (store.Snapshot.Apps). It reads only snapshots
// (Finish) and keeps no state.
type Apps struct{}

// Check implements store.Check; the app rules read only the catalog.
func (Apps) Check(*store.Frame, func(finding.Finding)) {}

// Finish raises the findings of the snapshot's app tools.
func (Apps) Finish(s *store.Snapshot, raise func(finding.Finding)) {
	for _, a := range s.Apps() {
		at := func(f finding.Finding, line int) {
			f.Line = line
			raise(f)
		}
		if !mcp.IsUIResource(a.ResourceURI) {
			at(finding.New(finding.AppResourceInvalid, a.Seq, "tool %q names UI resource %q, which is not a ui:// uri", a.Tool, a.ResourceURI), a.Line)
		}
		if a.Reads > 0 && !mcp.IsAppMimeType(a.MimeType) {
			at(finding.New(finding.AppResourceInvalid, a.FirstRead, "UI resource %q of tool %q was read with mimeType %q, not %s",
				a.ResourceURI, a.Tool, a.MimeType, mcp.MimeTypeApp), a.FirstReadLine)
		}
		if s.Session.Ended && a.Calls > 0 && a.Reads == 0 {
			failed := ""
			if a.Failed > 0 {
				failed = fmt.Sprintf(" (%d reads of it failed)", a.Failed)
			}
			at(finding.New(finding.AppResourceNotRead, a.Seq, "tool %q was called (%d calls), but its UI resource %q was never read%s",
				a.Tool, a.Calls, a.ResourceURI, failed), a.Line)
		}
	}
}
