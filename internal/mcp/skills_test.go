package mcp

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

const testDigest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func TestParseSkill(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, entry string
		want        Skill
	}{
		{"files", `{"uri":"skill://a/SKILL.md","resources":[{"uri":"skill://a/SKILL.md","digest":"` + testDigest + `","size":12}]}`,
			Skill{Files: []SkillFile{{URI: "skill://a/SKILL.md", Digest: testDigest, DigestOK: true, Size: 12, SizeOK: true}}}},
		{"dynamic", `{"resources":"dynamic"}`, Skill{Dynamic: true}},
		{"missing", `{"uri":"skill://a/SKILL.md"}`, Skill{Problem: "resources missing"}},
		{"other string", `{"resources":"static"}`, Skill{Problem: `resources is not an array or "dynamic"`}},
		{"last member wins", `{"resources":7,"resources":[]}`, Skill{Files: []SkillFile{}}},
		{"bad digest and size", `{"resources":[{"uri":"u","digest":"sha256:ABC","size":-1},{"uri":"v","digest":"` + testDigest + `","size":1.5}]}`,
			Skill{Files: []SkillFile{{URI: "u", Digest: "sha256:ABC", Size: -1}, {URI: "v", Digest: testDigest, DigestOK: true}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, ParseSkill(jsontext.Value(tc.entry))); diff != "" {
				t.Errorf("ParseSkill (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSkillItems(t *testing.T) {
	t.Parallel()
	list := `{"skills":[{"uri":"a"},{"uri":"b"}],"ttlMs":1}`
	if got := len(SkillItems(MethodSkillsList, jsontext.Value(list))); got != 2 {
		t.Errorf("skills/list: %d items, want 2", got)
	}
	if got := SkillItems(MethodSkillsGet, jsontext.Value(list)); got != nil {
		t.Errorf("skills/get of a list result: %q, want nil", got)
	}
	if got := len(SkillItems(MethodSkillsGet, jsontext.Value(`{"skill":{"uri":"a"}}`))); got != 1 {
		t.Errorf("skills/get: %d items, want 1", got)
	}
}

func TestReadContents(t *testing.T) {
	t.Parallel()
	got := ReadContents(jsontext.Value(`{"contents":[{"uri":"a","mimeType":"text/markdown","text":"line\r\n\u00e9"},` +
		`{"uri":"b","blob":"aGk="},{"uri":"c","blob":"not base64!"},{"uri":"d"},7]}`))
	want := []ResourceContent{
		{URI: "a", MimeType: "text/markdown", Bytes: []byte("line\r\né"), OK: true},
		{URI: "b", Bytes: []byte("hi"), OK: true},
		{URI: "c"},
		{URI: "d"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ReadContents (-want +got):\n%s", diff)
	}
}

func TestValidDigest(t *testing.T) {
	t.Parallel()
	for d, want := range map[string]bool{
		testDigest:                   true,
		"sha256:" + testDigest[7:70]: false,
		"SHA256:" + testDigest[7:]:   false,
		"sha256:0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef": false,
		"": false,
	} {
		if got := ValidDigest(d); got != want {
			t.Errorf("ValidDigest(%q) = %v, want %v", d, got, want)
		}
	}
}

func TestParseToolUI(t *testing.T) {
	t.Parallel()
	for meta, want := range map[string]ToolUI{
		`{"ui":{"resourceUri":"ui://a"}}`:                           {ResourceURI: "ui://a"},
		`{"ui/resourceUri":"ui://b"}`:                               {ResourceURI: "ui://b", Flat: true},
		`{"ui/resourceUri":"ui://b","ui":{"resourceUri":"ui://a"}}`: {ResourceURI: "ui://a"},
		`{"ui":{"resourceUri":7}}`:                                  {},
		`{"ui":{"visibility":["app"]}}`:                             {},
		`[]`:                                                        {},
	} {
		if got := ParseToolUI(jsontext.Value(meta)); got != want {
			t.Errorf("ParseToolUI(%s) = %+v, want %+v", meta, got, want)
		}
	}
}

func TestElicitAppResource(t *testing.T) {
	t.Parallel()
	for params, want := range map[string]string{
		`{"message":"m","_meta":{"ui":{"resourceUri":"ui://form"}}}`: "ui://form",
		`{"message":"m","_meta":{"ui/resourceUri":"ui://form"}}`:     "",
		`{"message":"m"}`: "",
	} {
		if got := ElicitAppResource(jsontext.Value(params)); got != want {
			t.Errorf("ElicitAppResource(%s) = %q, want %q", params, got, want)
		}
	}
}

func TestIsAppMimeType(t *testing.T) {
	t.Parallel()
	for mt, want := range map[string]bool{
		MimeTypeApp:                    true,
		`text/html; profile="mcp-app"`: true,
		"TEXT/HTML;PROFILE=mcp-app":    true,
		"text/html":                    false,
		"text/html;profile=other":      false,
		"text/html+mcp":                false,
	} {
		if got := IsAppMimeType(mt); got != want {
			t.Errorf("IsAppMimeType(%q) = %v, want %v", mt, got, want)
		}
	}
}

// FuzzExtensions feeds one JSON value to every Skills and MCP Apps parser:
// none may panic, and what they report must agree with itself.
func FuzzExtensions(f *testing.F) {
	f.Add([]byte(`{"skills":[{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":[{"uri":"skill://a/SKILL.md","digest":"` + testDigest + `","size":3}]}]}`))
	f.Add([]byte(`{"skill":{"uri":"skill://a/SKILL.md","resources":"dynamic"}}`))
	f.Add([]byte(`{"contents":[{"uri":"a","text":"x\r\n"},{"uri":"b","blob":"aGk="}],"_meta":{"ui":{"resourceUri":"ui://x"}}}`))
	f.Add([]byte(`{"ui":{"resourceUri":"ui://a"},"ui/resourceUri":"ui://b"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		v := jsontext.Value(b)
		for _, m := range []string{MethodSkillsList, MethodSkillsGet} {
			for _, item := range SkillItems(m, v) {
				s := ParseSkill(item)
				if s.Dynamic && (s.Files != nil || s.Problem != "") {
					t.Fatalf("dynamic skill with files or a problem: %+v", s)
				}
				for _, fl := range s.Files {
					if fl.DigestOK != ValidDigest(fl.Digest) || (fl.SizeOK && fl.Size < 0) {
						t.Fatalf("inconsistent file %+v", fl)
					}
				}
				if d, ok := ParseDefinition(ListKinds()[ListMethod(MethodSkillsList)], item); ok && d.Key != d.URI {
					t.Fatalf("skill key %q, uri %q", d.Key, d.URI)
				}
			}
		}
		for _, c := range ReadContents(v) {
			if !c.OK && c.Bytes != nil {
				t.Fatalf("unreadable content with bytes: %+v", c)
			}
		}
		if ui := ParseToolUI(v); ui.Flat && ui.ResourceURI == "" {
			t.Fatalf("flat UI without a uri: %+v", ui)
		}
		if d := ServerSkills(v); d.DirectoryRead && !d.Declared {
			t.Fatalf("directoryRead without the extension: %+v", d)
		}
		_ = ElicitAppResource(v)
		_ = IsAppMimeType(string(b))
	})
}

func TestServerSkills(t *testing.T) {
	t.Parallel()
	for caps, want := range map[string]SkillsDeclaration{
		`{"resources":{},"extensions":{"io.modelcontextprotocol/skills":{"directoryRead":true}}}`:  {Declared: true, DirectoryRead: true, Resources: true},
		`{"extensions":{"io.modelcontextprotocol/skills":{}}}`:                                     {Declared: true},
		`{"resources":{},"extensions":{"io.modelcontextprotocol/skills":{"directoryRead":"yes"}}}`: {Declared: true, Resources: true},
		`{"resources":{}}`: {Resources: true},
		`[]`:               {},
	} {
		if got := ServerSkills(jsontext.Value(caps)); got != want {
			t.Errorf("ServerSkills(%s) = %+v, want %+v", caps, got, want)
		}
	}
}
