package store

// AppTool is one tool of the catalog's tools/list that names a UI resource
// (MCP Apps, ext-apps specification/draft/apps.mdx § Resource Discovery),
// with what the session did with it: whether the host ever read the
// resource is what "my app does not render" is debugged with.
type AppTool struct {
	// Tool is the tool's name; ResourceURI its _meta.ui.resourceUri;
	// Flat reports that only the deprecated flat _meta["ui/resourceUri"]
	// named it. Seq and Line locate the response that listed the tool.
	Tool        string
	ResourceURI string
	Flat        bool
	Seq         uint64
	Line        int
	// Calls counts the session's tools/call of the tool (an MRTR
	// operation once).
	Calls int
	// Reads counts the content items of resources/read answers for
	// ResourceURI; Failed the reads of it answered with an error.
	Reads  int
	Failed int
	// FirstRead is the seq of the first answer that read it, with its
	// capture line and mimeType; zero when it was never read.
	FirstRead     uint64
	FirstReadLine int
	MimeType      string
}

// Apps returns the app tools of the snapshot's latest tools/list, in its
// order; nil when it lists none.
func (s *Snapshot) Apps() []AppTool {
	l := s.Catalog.list(KindTool)
	if l == nil {
		return nil
	}
	calls := make(map[string]int, len(s.Summary.Tools))
	for _, t := range s.Summary.Tools {
		calls[t.Name] = t.Count
	}
	var out []AppTool
	for i := range l.Definitions {
		d := &l.Definitions[i]
		if d.UI.ResourceURI == "" {
			continue
		}
		a := AppTool{Tool: d.Name, ResourceURI: d.UI.ResourceURI, Flat: d.UI.Flat, Seq: d.Seq, Line: d.Line, Calls: calls[d.Name]}
		for j := range s.Catalog.Reads {
			r := &s.Catalog.Reads[j]
			if r.URI != a.ResourceURI {
				continue
			}
			if r.Failed {
				a.Failed++
				continue
			}
			if a.Reads == 0 {
				a.FirstRead, a.FirstReadLine, a.MimeType = r.Seq, r.Line, r.MimeType
			}
			a.Reads++
		}
		out = append(out, a)
	}
	return out
}
