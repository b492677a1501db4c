package jsonexport

import (
	"bytes"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/store"
)

// catalog writes the catalog member (with its leading comma) when the
// client got any list result; a session that listed nothing adds nothing,
// so its export is byte-identical to one made before the catalog. Each
// definition and change sits on its own line and is flushed as it goes.
func (t *tail) catalog(c *store.Catalog) {
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
	t.b = appendEnd(t.b, len(c.Changes), "]}")
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
	o.str("hash", d.Hash)
	o.uint("seq", d.Seq)
	return o.close()
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
