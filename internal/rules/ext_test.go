package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/store"
)

// skillMD is the SKILL.md of the test skill "refunds".
const skillMD = "---\nname: refunds\ndescription: Refund policy\n---\r\n\n# Refunds\n"

func digestOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// skillEntry is the refunds skill's entry, listing SKILL.md with digest
// and size as given.
func skillEntry(digest string, size int) string {
	return fmt.Sprintf(`{"uri":"skill://acme/refunds/SKILL.md","frontmatter":{"name":"refunds","description":"Refund policy"},`+
		`"resources":[{"uri":"skill://acme/refunds/SKILL.md","digest":%q,"size":%d}]}`, digest, size)
}

// skillSession lists entry with skills/list, then reads uri, answered
// with text.
func skillSession(entry, uri, text string) []step {
	q, _ := json.Marshal(text)
	return []step{
		c2s(`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{` + meta + `}}`),
		s2c(res("1", `{"resultType":"complete","skills":[`+entry+`],"ttlMs":0,"cacheScope":"private"}`)),
		c2s(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":%q,%s}}`, uri, meta)),
		s2c(res("2", fmt.Sprintf(`{"resultType":"complete","contents":[{"uri":%q,"mimeType":"text/markdown","text":%s}]}`, uri, q))),
		endRec(),
	}
}

// appSession lists a tool naming resource, calls it, and reads what the
// host read (none when read is "") answered with mimeType.
func appSession(resource, read, mimeType string) []step {
	steps := []step{
		c2s(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + meta + `}}`),
		s2c(res("1", fmt.Sprintf(`{"resultType":"complete","tools":[{"name":"chart","inputSchema":{"type":"object"},"_meta":{"ui":{"resourceUri":%q}}}]}`, resource))),
	}
	if read != "" {
		steps = append(steps,
			c2s(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":%q,%s}}`, read, meta)),
			s2c(res("2", fmt.Sprintf(`{"resultType":"complete","contents":[{"uri":%q,"mimeType":%q,"text":"<!doctype html><html></html>"}]}`, read, mimeType))))
	}
	return append(steps, c2s(tool("3", "chart", "{}", "")), s2c(res("3", `{"resultType":"complete","content":[]}`)), endRec())
}

// extSessions maps each Skills and MCP Apps rule to a session raising it.
func extSessions() map[string][]step {
	good := skillEntry(digestOf(skillMD), len(skillMD))
	return map[string][]step{
		finding.SkillDigestMismatch: skillSession(skillEntry(digestOf("other"), len(skillMD)), "skill://acme/refunds/SKILL.md", skillMD),
		finding.SkillSizeMismatch:   skillSession(skillEntry(digestOf(skillMD), 3), "skill://acme/refunds/SKILL.md", skillMD),
		finding.SkillUnlistedFile:   skillSession(good, "skill://acme/refunds/extra.md", "x"),
		finding.SkillEntryInvalid:   skillSession(`{"uri":"skill://acme/refund/SKILL.md","frontmatter":{"name":"refunds","description":"d"},"resources":7}`, "skill://x", ""),
		finding.AppResourceNotRead:  appSession("ui://chart/view", "", ""),
		finding.SkillNoResourcesCap: append([]step{c2s(`{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{` + meta + `}}`),
			s2c(res(`"d"`, `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{},"extensions":{"io.modelcontextprotocol/skills":{}}}}`))},
			skillSession(good, "skill://acme/refunds/SKILL.md", skillMD)...),
		finding.SkillDirectoryUndeclared: append(discovered(`{}`), dirRead()...),
		finding.AppResourceInvalid:       appSession("ui://chart/view", "ui://chart/view", "text/html"),
	}
}

// quietExtSessions must raise no finding at all.
func quietExtSessions() map[string][]step {
	return map[string][]step{
		"skill verified, CRLF kept": skillSession(skillEntry(digestOf(skillMD), len(skillMD)), "skill://acme/refunds/SKILL.md", skillMD),
		"dynamic skill read": skillSession(`{"uri":"skill://acme/refunds/SKILL.md","frontmatter":{"name":"refunds","description":"d"},"resources":"dynamic"}`,
			"skill://acme/refunds/notes.md", "x"),
		"not a skill file":                     skillSession(skillEntry(digestOf(skillMD), len(skillMD)), "file:///README.md", "x"),
		"app resource read":                    appSession("ui://chart/view", "ui://chart/view", "text/html;profile=mcp-app"),
		"directory read declared":              append(discovered(`{"directoryRead":true}`), dirRead()...),
		"directory read, no capabilities seen": dirRead(),
		"app mimeType spelling":                appSession("ui://chart/view", "ui://chart/view", `Text/HTML; profile="mcp-app"`),
	}
}

func TestExtensionRules(t *testing.T) {
	t.Parallel()
	for id, steps := range extSessions() {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			got := extFindings(t, steps)
			if !slices.Contains(got, id) {
				t.Errorf("raised %v, want %s", got, id)
			}
		})
	}
	for name, steps := range quietExtSessions() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := extFindings(t, steps); len(got) > 0 {
				t.Errorf("raised %v, want none", got)
			}
		})
	}
}

// TestSkillDigestMessage pins what the digest mismatch says: both
// digests, the uri and that a digest is no trust anchor.
func TestSkillDigestMessage(t *testing.T) {
	t.Parallel()
	snap := run(extSessions()[finding.SkillDigestMismatch])
	var msgs []string
	for _, f := range snap.Findings.Slice() {
		msgs = append(msgs, f.Message)
	}
	want := []string{fmt.Sprintf(`resources/read of "skill://acme/refunds/SKILL.md" (skill "skill://acme/refunds/SKILL.md") hashes to %s, `+
		`but the entry lists %s; a digest is no trust anchor: the same server supplies entry and content`, digestOf(skillMD), digestOf("other"))}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}

func run(steps []step) *store.Snapshot {
	st := store.New(&store.Options{Rules: Default(), Checks: Checks()})
	for _, r := range records(steps) {
		st.Ingest(&r)
	}
	return st.Final()
}

func extFindings(t *testing.T, steps []step) []string {
	t.Helper()
	var got []string
	for _, f := range run(steps).Findings.Slice() {
		got = append(got, f.Rule)
	}
	return got
}

// discovered is a server/discover answered with the Skills extension
// declared as settings (a JSON object) beside resources.
func discovered(settings string) []step {
	return []step{
		c2s(`{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{` + meta + `}}`),
		s2c(res(`"d"`, `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"resources":{},"extensions":{"io.modelcontextprotocol/skills":`+settings+`}}}`)),
	}
}

// dirRead reads a skill's directory.
func dirRead() []step {
	return []step{
		c2s(`{"jsonrpc":"2.0","id":"dr","method":"resources/directory/read","params":{"uri":"skill://acme/refunds",` + meta + `}}`),
		s2c(res(`"dr"`, `{"resultType":"complete","resources":[]}`)),
		endRec(),
	}
}

// TestSkillMessagesQuoteHostileDigests: a listed digest that is not well
// formed reaches a message quoted, control characters escaped.
func TestSkillMessagesQuoteHostileDigests(t *testing.T) {
	t.Parallel()
	entry := strings.Replace(skillEntry("DIGEST", 3), `"DIGEST"`, `"\u001b]0;pwned\u0007"`, 1)
	snap := run(skillSession(entry, "skill://acme/refunds/SKILL.md", skillMD))
	var rules []string
	for _, f := range snap.Findings.Slice() {
		rules = append(rules, f.Rule)
		if strings.ContainsAny(f.Message, "\x1b\x07") {
			t.Errorf("%s message carries a raw control character: %q", f.Rule, f.Message)
		}
	}
	if !slices.Contains(rules, finding.SkillSizeMismatch) {
		t.Errorf("raised %v, want %s", rules, finding.SkillSizeMismatch)
	}
}
