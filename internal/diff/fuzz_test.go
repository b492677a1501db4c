package diff

import (
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/transcript"
)

// FuzzJSON checks the structural diff on any pair of inputs: it never
// panics, a value never differs from itself, comparing b with a gives the
// same deltas turned round, and every delta names a pointer and carries
// valid JSON. It is seeded with the frames of the corpus transcripts.
func FuzzJSON(f *testing.F) {
	for _, s := range [][2]string{
		{`{"a":1}`, `{"a":2,"b":[1]}`},
		{`[1,2,3]`, `[1]`},
		{`{"a/b":{"m~n":null}}`, `{"a/b":{"m~n":"x"}}`},
		{`{"a":1,"a":2}`, `{"a":1}`},
		{`"\ud800"`, `"x"`},
	} {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	frames := corpusFrames(f, "../../testdata/transcripts/elicit-seed.transcript.jsonl")
	for i := 1; i < len(frames); i++ {
		f.Add(frames[i-1], frames[i])
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		ab, errAB := JSON(a, b)
		ba, errBA := JSON(b, a)
		if (errAB == nil) != (errBA == nil) {
			t.Fatalf("JSON(a, b) error %v, JSON(b, a) error %v", errAB, errBA)
		}
		if errAB != nil {
			return
		}
		if same, err := JSON(a, a); err != nil || len(same) > 0 {
			t.Fatalf("JSON(a, a) = %v, %v; want nothing", same, err)
		}
		if got, want := turned(ba), sorted(ab); !slices.Equal(got, want) {
			t.Fatalf("JSON(b, a) turned round = %v, want %v", got, want)
		}
		for _, d := range ab {
			checkDelta(t, d)
		}
	})
}

// turned returns deltas as the opposite comparison would give them,
// sorted by path.
func turned(ds []Delta) []Delta {
	out := make([]Delta, len(ds))
	for i, d := range ds {
		op := d.Op
		switch op {
		case OpAdded:
			op = OpRemoved
		case OpRemoved:
			op = OpAdded
		}
		out[i] = Delta{Path: d.Path, Op: op, Old: d.New, New: d.Old}
	}
	return sorted(out)
}

func sorted(ds []Delta) []Delta {
	out := slices.Clone(ds)
	slices.SortFunc(out, func(x, y Delta) int { return strings.Compare(x.Path, y.Path) })
	return out
}

func checkDelta(t *testing.T, d Delta) {
	t.Helper()
	if d.Path != "" && d.Path[0] != '/' {
		t.Fatalf("delta %+v: path is not a JSON Pointer", d)
	}
	valid := func(s string) bool {
		return jsontext.Value(s).IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	}
	switch {
	case d.Op == OpAdded && (d.Old != "" || !valid(d.New)),
		d.Op == OpRemoved && (d.New != "" || !valid(d.Old)),
		d.Op == OpChanged && (!valid(d.Old) || !valid(d.New)):
		t.Fatalf("delta %+v: want valid JSON on the sides its op has", d)
	}
}

// corpusFrames returns the raw frames of a transcript, for seeds.
func corpusFrames(f *testing.F, path string) [][]byte {
	tr, err := transcript.Load(path)
	if err != nil {
		f.Fatal(err)
	}
	var out [][]byte
	for _, fr := range tr.Frames {
		out = append(out, fr.Raw)
	}
	return out
}
