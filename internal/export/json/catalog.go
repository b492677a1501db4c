package jsonexport

import (
	"bytes"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
)

// catalog writes the catalog member (with its leading comma) when the
// client got any list result; a session that listed nothing adds nothing,
// so its export is byte-identical to one made before the catalog. Each
// definition and change sits on its own line and is flushed as it goes.
func (t *tail) catalog(c *store.Catalog, apps []store.AppTool) {
	if c == nil {
		return
	}
	t.b = append(t.b, ",\n\"catalog\":{\"lists\":["...)
	for i := range c.Lists {
		l := &c.Lists[i]
		t.b = appendSep(t.b, i)
		o := openObject(t.b)
		o.str("method", l.Method)
		o.str("kind", l.Kind)
		o.uint("seq", l.Seq)
		o.int("pages", int64(l.Pages))
		o.bool("complete", l.Complete)
		o.key("definitions")
		t.b = append(o.b, '[')
		for j := range l.Definitions {
			t.b = appendSep(t.b, j)
			t.b = appendDefinition(t.b, &l.Definitions[j])
			t.flush(false)
		}
		t.b = appendEnd(t.b, len(l.Definitions), "]}")
	}
	t.b = appendEnd(t.b, len(c.Lists), "],\n\"changes\":[")
	for i := range c.Changes {
		t.b = appendSep(t.b, i)
		t.b = appendChange(t.b, &c.Changes[i])
		t.flush(false)
	}
	t.b = appendEnd(t.b, len(c.Changes), "]")
	t.reads(c.Reads)
	if c.ReadsOmitted > 0 {
		o := object{b: t.b, n: 1} // after changes (and reads)
		o.int("reads_omitted", int64(c.ReadsOmitted))
		t.b = o.b
	}
	t.apps(apps)
	t.b = append(t.b, '}')
}

// reads writes the catalog's reads member when it has any: the reads of
// skill files (checked against their entries) and UI resources.
func (t *tail) reads(reads []store.ResourceRead) {
	if len(reads) == 0 {
		return
	}
	t.b = append(t.b, ",\n\"reads\":["...)
	for i := range reads {
		r := &reads[i]
		t.b = appendSep(t.b, i)
		o := openObject(t.b)
		o.uint("seq", r.Seq)
		o.int("call", int64(r.Call))
		o.str("uri", r.URI)
		o.strOpt("mime_type", r.MimeType)
		if r.Failed {
			o.bool("failed", true)
		} else if r.Verdict != store.SkillUnreadable {
			o.int("size", r.Size)
			o.str("digest", r.Digest)
		}
		o.strOpt("skill", r.Skill)
		o.strOpt("verdict", r.Verdict)
		o.strOpt("listed_digest", r.WantDigest)
		if r.WantDigest != "" {
			o.int("listed_size", r.WantSize)
		}
		if r.UI {
			o.bool("ui", true)
		}
		t.b = o.close()
		t.flush(false)
	}
	t.b = appendEnd(t.b, len(reads), "]")
}

// apps writes the catalog's apps member when the tools list names a UI
// resource: per app tool, whether the host read it.
func (t *tail) apps(apps []store.AppTool) {
	if len(apps) == 0 {
		return
	}
	t.b = append(t.b, ",\n\"apps\":["...)
	for i := range apps {
		a := &apps[i]
		t.b = appendSep(t.b, i)
		o := openObject(t.b)
		o.str("tool", a.Tool)
		o.str("resource_uri", a.ResourceURI)
		if a.Flat {
			o.bool("flat_meta", true)
		}
		o.int("calls", int64(a.Calls))
		o.int("reads", int64(a.Reads))
		if a.Failed > 0 {
			o.int("failed_reads", int64(a.Failed))
		}
		o.uintOpt("first_read_seq", a.FirstRead)
		o.strOpt("mime_type", a.MimeType)
		t.b = o.close()
	}
	t.b = appendEnd(t.b, len(apps), "]")
}

// appendDefinition writes one catalog definition; absent members are
// left out, except key, hash and seq.
func appendDefinition(b []byte, d *store.Definition) []byte {
	o := openObject(b)
	o.str("key", d.Key)
	o.strOpt("name", d.Name)
	o.strOpt("title", d.Title)
	o.strOpt("description", d.Description)
	o.strOpt("uri", d.URI)
	o.strOpt("uri_template", d.URITemplate)
	o.strOpt("mime_type", d.MimeType)
	o.rawOpt("input_schema", d.InputSchema)
	o.rawOpt("output_schema", d.OutputSchema)
	o.rawOpt("arguments", d.Arguments)
	o.rawOpt("annotations", d.Annotations)
	o.strOpt("ui_resource_uri", d.UI.ResourceURI)
	appendSkill(&o, &d.Skill)
	o.str("hash", d.Hash)
	o.uint("seq", d.Seq)
	return o.close()
}

// appendSkill writes what a skill entry lists of its files: dynamic, or
// files[] with their digests and sizes (absent when not valid).
func appendSkill(o *object, s *mcp.Skill) {
	switch {
	case s.Dynamic:
		o.bool("dynamic", true)
	case s.Files != nil:
		o.array("files", len(s.Files), func(b []byte, i int) []byte {
			f := &s.Files[i]
			fo := openObject(b)
			fo.str("uri", f.URI)
			fo.str("digest", f.Digest)
			if f.SizeOK {
				fo.int("size", f.Size)
			}
			return fo.close()
		})
	}
	if s.Problem != "" {
		o.str("problem", s.Problem)
	}
}

// appendChange writes one catalog change.
func appendChange(b []byte, c *store.CatalogChange) []byte {
	o := openObject(b)
	o.uint("seq", c.Seq)
	o.str("kind", c.Kind)
	o.str("key", c.Key)
	o.str("change", c.Change)
	o.strOpt("hash", c.Hash)
	o.strOpt("previous_hash", c.PrevHash)
	o.uintOpt("notified_seq", c.Notified)
	return o.close()
}

// rawOpt writes a raw JSON value when it is present, compacted when the
// server spread it over lines, so that each element keeps to one line.
func (o *object) rawOpt(k string, v jsontext.Value) {
	if v == nil {
		return
	}
	if bytes.ContainsAny(v, "\n\r") {
		c := bytes.Clone(v)
		if err := (*jsontext.Value)(&c).Compact(); err == nil {
			v = c
		}
	}
	o.raw(k, v)
}
