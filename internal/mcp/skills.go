package mcp

import (
	"encoding/base64"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// The Skills extension (modelcontextprotocol/ext-skills,
// specification/stable/skills.mdx, SEP-2640): a server publishes skills,
// directories of files read with resources/read, each listed with the
// digest and size of its bytes.
const (
	// ExtensionSkills is the extension's key in capabilities.extensions.
	ExtensionSkills = "io.modelcontextprotocol/skills"
	// MethodSkillsList pages through the server's skills (§ Listing Skills).
	MethodSkillsList = "skills/list"
	// MethodSkillsGet returns the entry of one skill by the uri of its
	// SKILL.md (§ Getting a Skill).
	MethodSkillsGet = "skills/get"
	// MethodResourcesDirectoryRead lists a directory resource's direct
	// children, behind directoryRead: true (§ Reading Directories).
	MethodResourcesDirectoryRead = "resources/directory/read"
	// SkillsDynamic is the resources value of a skill whose content is
	// generated, so that it has no digests to check (§ Resources).
	SkillsDynamic = "dynamic"
)

// Skill is what a catalog keeps of one Skill entry of a skills/list or
// skills/get result (§ Skill Entries). Its strings are copies.
type Skill struct {
	// Dynamic reports resources: "dynamic": nothing can be verified.
	Dynamic bool
	// Files lists the entry's resources array in wire order; nil when
	// resources is "dynamic" or not an array.
	Files []SkillFile
	// Problem says why the entry is invalid (§ Resources: "hosts MUST NOT
	// load it"): "resources missing", "resources is not an array or
	// \"dynamic\""; "" when its resources member is well formed.
	Problem string
}

// SkillFile is one SkillResource: a file of the skill with the digest and
// size of its raw bytes.
type SkillFile struct {
	URI string
	// Digest is the digest member as sent; DigestOK reports whether it is
	// "sha256:" and 64 lowercase hex digits.
	Digest   string
	DigestOK bool
	// Size is the size member; SizeOK reports whether it is a
	// non-negative integer.
	Size   int64
	SizeOK bool
}

// SkillItems returns the raw Skill entries of a skills/list result (its
// skills member; last one wins, as JSON.parse reads it) or a skills/get
// result (its skill member); nil for another method or a result without
// them. The values alias result.
func SkillItems(method string, result jsontext.Value) []jsontext.Value {
	var items []jsontext.Value
	eachMember(result, func(name, val []byte) bool {
		switch {
		case method == MethodSkillsList && string(name) == "skills":
			items = nil
			jsonraw.EachElement(val, func(item []byte) { items = append(items, item) })
		case method == MethodSkillsGet && string(name) == "skill":
			items = nil
			if isObject(val) {
				items = []jsontext.Value{val}
			}
		}
		return true
	})
	return items
}

// ParseSkill reads the resources member of a Skill entry (its uri and
// frontmatter are read by ParseDefinition). A member given twice counts as
// its last.
func ParseSkill(entry jsontext.Value) Skill {
	var res []byte
	eachMember(entry, func(name, val []byte) bool {
		if string(name) == "resources" {
			res = val
		}
		return true
	})
	var s Skill
	switch {
	case res == nil:
		s.Problem = "resources missing"
	case string(res) == `"`+SkillsDynamic+`"`:
		s.Dynamic = true
	case len(res) > 0 && res[0] == '[':
		s.Files = []SkillFile{}
		jsonraw.EachElement(res, func(item []byte) { s.Files = append(s.Files, parseSkillFile(item)) })
	default:
		s.Problem = `resources is not an array or "dynamic"`
	}
	return s
}

func parseSkillFile(item []byte) SkillFile {
	var f SkillFile
	eachMember(item, func(name, val []byte) bool {
		switch string(name) {
		case "uri":
			f.URI, _ = jsonraw.String(val)
		case "digest":
			f.Digest, _ = jsonraw.String(val)
			f.DigestOK = ValidDigest(f.Digest)
		case "size":
			n, err := strconv.ParseInt(string(val), 10, 64)
			f.Size, f.SizeOK = n, err == nil && n >= 0
		}
		return true
	})
	return f
}

// ValidDigest reports whether d is a SkillResource digest: "sha256:" and
// 64 lowercase hexadecimal digits (§ Integrity and Verification).
func ValidDigest(d string) bool {
	const prefix = "sha256:"
	if len(d) != len(prefix)+64 || d[:len(prefix)] != prefix {
		return false
	}
	for _, c := range []byte(d[len(prefix):]) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// ResourceContent is one item of a resources/read result's contents.
type ResourceContent struct {
	URI      string
	MimeType string
	// Bytes are the content's raw bytes: a text item's string as UTF-8
	// (exactly as unescaped, line ends untouched), a blob's base64
	// decoded. OK reports whether the item had a text or blob that could
	// be read so; a blob wins over a text when an item has both.
	Bytes []byte
	OK    bool
	// Meta is the item's _meta, raw; nil when absent.
	Meta jsontext.Value
}

// ReadContents returns the items of a resources/read result's contents
// (spec server/resources, ReadResourceResult), in wire order; nil when
// there are none. Bytes do not alias result.
func ReadContents(result jsontext.Value) []ResourceContent {
	var items []jsontext.Value
	eachMember(result, func(name, val []byte) bool {
		if string(name) == "contents" {
			items = nil
			jsonraw.EachElement(val, func(item []byte) { items = append(items, item) })
		}
		return true
	})
	var out []ResourceContent
	for _, item := range items {
		if isObject(item) {
			out = append(out, parseContent(item))
		}
	}
	return out
}

func parseContent(item []byte) ResourceContent {
	var c ResourceContent
	var text, blob []byte
	eachMember(item, func(name, val []byte) bool {
		switch string(name) {
		case "uri":
			c.URI, _ = jsonraw.String(val)
		case "mimeType":
			c.MimeType, _ = jsonraw.String(val)
		case "text":
			text = val
		case "blob":
			blob = val
		case MemberMeta:
			c.Meta = val
		}
		return true
	})
	switch {
	case blob != nil:
		if s, ok := jsonraw.String(blob); ok {
			if b, err := base64.StdEncoding.DecodeString(s); err == nil {
				c.Bytes, c.OK = b, true
			}
		}
	case text != nil:
		if b, ok := jsonraw.UnquoteStrict(nil, text); ok {
			c.Bytes, c.OK = append([]byte(nil), b...), true
		}
	}
	return c
}

// SkillsDeclaration is what a server's capabilities say of the Skills
// extension (§ Capability Negotiation).
type SkillsDeclaration struct {
	// Declared reports capabilities.extensions["io.modelcontextprotocol/skills"]
	// as an object; DirectoryRead its directoryRead: true.
	Declared      bool
	DirectoryRead bool
	// Resources reports the resources capability, which a server declaring
	// the extension MUST declare too.
	Resources bool
}

// ServerSkills reads a server's capabilities object. A member given twice
// counts as its last.
func ServerSkills(caps jsontext.Value) SkillsDeclaration {
	var d SkillsDeclaration
	eachMember(caps, func(name, val []byte) bool {
		switch string(name) {
		case "resources":
			d.Resources = isObject(val)
		case "extensions":
			d.Declared, d.DirectoryRead = false, false
			eachMember(val, func(name, val []byte) bool {
				if string(name) == ExtensionSkills {
					d.Declared = isObject(val)
					d.DirectoryRead = d.Declared && string(jsonraw.Member(val, "directoryRead")) == "true"
				}
				return true
			})
		}
		return true
	})
	return d
}
