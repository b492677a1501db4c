package store

import (
	"bytes"
	"slices"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/jsonraw"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// FuzzCatalog lists tools twice, around a list_changed, with any two
// results (the first paged when it has a nextCursor), and checks that the
// catalog agrees with its own history: each key is listed once, and the
// last change of a key says whether it is current and with which hash.
func FuzzCatalog(f *testing.F) {
	f.Add([]byte(`{"tools":[`+toolA+`,`+toolB+`],"nextCursor":"p2"}`), []byte(`{"tools":[`+toolA2+`,`+toolC+`]}`))
	f.Add([]byte(`{"tools":[{"name":"a"},{"name":"a","x":1},"s",{"name":"\ud800\u001b"}]}`), []byte(`{"tools":[]}`))
	f.Add([]byte(`{"tools":{"name":"a"}}`), []byte(`{"tools":[{"name":"b","n":1,"n":2}],"nextCursor":7}`))
	f.Fuzz(func(t *testing.T, first, second []byte) {
		s := New(nil)
		seq := uint64(0)
		feed := func(dir capture.Dir, raw string) {
			seq++
			r := capture.Record{Type: capture.TypeFrame, Seq: seq, Dir: dir, Time: t0}
			if wire.Decode([]byte(raw)).Kind == wire.KindInvalid {
				r.Text = raw
			} else {
				r.Msg = []byte(raw)
			}
			s.Ingest(&r)
		}
		feed(capture.C2S, listReq("1", "tools/list", ""))
		feed(capture.S2C, res("1", string(first)))
		feed(capture.C2S, listReq("2", "tools/list", "p2"))
		feed(capture.S2C, listRes("2", "tools", "", toolC))
		feed(capture.S2C, notif("notifications/tools/list_changed", `{}`))
		feed(capture.C2S, listReq("3", "tools/list", ""))
		feed(capture.S2C, res("3", string(second)))
		checkCatalog(t, s.Snapshot().Catalog)
	})
}

// checkCatalog checks a catalog against its own history.
func checkCatalog(t *testing.T, c *Catalog) {
	t.Helper()
	if c == nil {
		return
	}
	for _, l := range c.Lists {
		current := make(map[string]string)
		for _, d := range l.Definitions {
			if _, dup := current[d.Key]; dup {
				t.Fatalf("%s lists %q twice", l.Method, d.Key)
			}
			if len(d.Hash) != 64 {
				t.Fatalf("%s %q: hash %q", l.Method, d.Key, d.Hash)
			}
			current[d.Key] = d.Hash
		}
		last := make(map[string]CatalogChange)
		for _, ch := range c.Changes {
			if ch.Kind == l.Kind {
				last[ch.Key] = ch
			}
		}
		for key, ch := range last {
			hash, ok := current[key]
			if ch.Change == ChangeRemoved && ok || ch.Change != ChangeRemoved && (!ok || hash != ch.Hash) {
				t.Fatalf("%s %q: last change %+v, current hash %q (listed %v)", l.Method, key, ch, hash, ok)
			}
		}
	}
	if !slices.IsSortedFunc(c.Changes, func(a, b CatalogChange) int { return int(a.Seq) - int(b.Seq) }) {
		t.Fatalf("changes out of seq order: %+v", c.Changes)
	}
}

// FuzzDefinitionHash checks that the hash of a JSON object does not depend
// on its layout or on the order of its members.
func FuzzDefinitionHash(f *testing.F) {
	f.Add([]byte(toolB))
	f.Add([]byte(`{"b":[1.0,{"c":"\u00e9"}],"a":1e2}`))
	f.Add([]byte(`{"a":"\ud800","b":{"y":1,"x":2}}`))
	f.Fuzz(func(t *testing.T, def []byte) {
		h := DefinitionHash(def)
		if !jsontext.Value(def).IsValid() || !bytes.HasPrefix(bytes.TrimLeft(def, " \t\r\n"), []byte("{")) {
			return
		}
		var names, vals [][]byte
		jsonraw.EachMember(def, func(n, v []byte) bool { names, vals = append(names, n), append(vals, v); return true })
		rev := []byte("{\n")
		for i := len(names) - 1; i >= 0; i-- {
			rev = append(append(append(rev, names[i]...), " : "...), vals[i]...)
			if i > 0 {
				rev = append(rev, ",\n\t"...)
			}
		}
		rev = append(rev, '}')
		if got := DefinitionHash(rev); got != h {
			t.Fatalf("hash of %s = %s, of the members reversed %s = %s", def, h, rev, got)
		}
	})
}
