package store

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// skill is the entry of skill://s/SKILL.md listing its SKILL.md with the
// digest and size of md.
func skill(md string) string {
	return fmt.Sprintf(`{"uri":"skill://s/SKILL.md","frontmatter":{"name":"s","description":"d"},"resources":[{"uri":"skill://s/SKILL.md","digest":%q,"size":%d}]}`,
		sha(md), len(md))
}

// readOf reads uri, answered with text.
func readOf(id, uri, text string) []step {
	q, _ := json.Marshal(text)
	return []step{
		c2s(1, req(id, "resources/read", fmt.Sprintf(`{"uri":%q,%s}`, uri, meta))),
		s2c(1, res(id, fmt.Sprintf(`{"resultType":"complete","contents":[{"uri":%q,"text":%s}]}`, uri, q))),
	}
}

func readLines(c *Catalog) []string {
	var out []string
	for _, r := range c.Reads {
		out = append(out, fmt.Sprintf("#%d %s %s skill=%s ui=%v failed=%v", r.Seq, r.URI, r.Verdict, r.Skill, r.UI, r.Failed))
	}
	return out
}

// TestSkillReadsFollowTheHeldEntry: a read is checked against the latest
// entry seen before it; a skills/get that refreshes the entry changes the
// catalog, and the reads before it keep their verdicts.
func TestSkillReadsFollowTheHeldEntry(t *testing.T) {
	t.Parallel()
	v1, v2 := "---\nname: s\n---\nv1\n", "---\nname: s\n---\nversion two\n"
	steps := []step{
		c2s(1, listReq("1", "skills/list", "")),
		s2c(1, listRes("1", "skills", "", skill(v1))),
	}
	steps = append(steps, readOf("2", "skill://s/SKILL.md", v2)...) // stale: the server moved on
	steps = append(steps,
		c2s(1, req("3", "skills/get", `{"uri":"skill://s/SKILL.md",`+meta+`}`)),
		s2c(1, res("3", `{"resultType":"complete","skill":`+skill(v2)+`,"ttlMs":0,"cacheScope":"private"}`)))
	steps = append(steps, readOf("4", "skill://s/SKILL.md", v2)...)
	steps = append(steps, readOf("5", "file:///not-a-skill", "x")...)
	steps = append(steps, readOf("6", "skill://s/extra.md", "x")...)
	before := load(t, steps[:4])
	snap := load(t, steps)
	want := []string{
		"#4 skill://s/SKILL.md size-mismatch skill=skill://s/SKILL.md ui=false failed=false",
		"#8 skill://s/SKILL.md verified skill=skill://s/SKILL.md ui=false failed=false",
		"#12 skill://s/extra.md unlisted skill=skill://s/SKILL.md ui=false failed=false",
	}
	if diff := cmp.Diff(want, readLines(snap.Catalog)); diff != "" {
		t.Errorf("reads (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want[:1], readLines(before.Catalog)); diff != "" {
		t.Errorf("reads of the earlier snapshot (-want +got):\n%s", diff)
	}
	if n := len(snap.Catalog.Changes); n != 1 || snap.Catalog.Changes[0].Change != ChangeChanged || snap.Catalog.Changes[0].Kind != KindSkill {
		t.Errorf("changes = %+v, want the skill changed by skills/get", snap.Catalog.Changes)
	}
}

// TestUIReads: a ui:// read is kept without any listing, an error answer
// as a failed read, an MRTR interim result not at all; Apps joins them
// with the tool that names the resource.
func TestUIReads(t *testing.T) {
	t.Parallel()
	steps := readOf("1", "ui://a/view", "<html></html>")
	steps = append(steps,
		c2s(1, req("2", "resources/read", `{"uri":"ui://b/view",`+meta+`}`)),
		s2c(1, errRes("2", -32602, "no such resource")),
		c2s(1, req("3", "resources/read", `{"uri":"ui://b/view",`+meta+`}`)),
		s2c(1, inputRequired("3", elicit("k"), "")),
		c2s(1, listReq("4", "tools/list", "")),
		s2c(1, listRes("4", "tools", "", `{"name":"a","inputSchema":{"type":"object"},"_meta":{"ui":{"resourceUri":"ui://a/view"}}}`,
			`{"name":"b","inputSchema":{"type":"object"},"_meta":{"ui/resourceUri":"ui://b/view"}}`)),
		c2s(1, tool("5", "b", "{}", "")),
		s2c(1, done("5")))
	snap := load(t, steps)
	want := []string{
		"#2 ui://a/view  skill= ui=true failed=false",
		"#4 ui://b/view  skill= ui=true failed=true",
	}
	if diff := cmp.Diff(want, readLines(snap.Catalog)); diff != "" {
		t.Errorf("reads (-want +got):\n%s", diff)
	}
	wantApps := []AppTool{
		{Tool: "a", ResourceURI: "ui://a/view", Seq: 8, Line: 9, Reads: 1, FirstRead: 2, FirstReadLine: 3},
		{Tool: "b", ResourceURI: "ui://b/view", Flat: true, Seq: 8, Line: 9, Calls: 1, Failed: 1},
	}
	if diff := cmp.Diff(wantApps, snap.Apps()); diff != "" {
		t.Errorf("Apps (-want +got):\n%s", diff)
	}
}

// TestReadsAreBounded: a host reading a UI resource without end keeps
// maxReads reads and counts the rest.
func TestReadsAreBounded(t *testing.T) {
	t.Parallel()
	var steps []step
	for i := range maxReads + 3 {
		steps = append(steps, readOf(fmt.Sprint(i), "ui://a/view", "<html></html>")...)
	}
	c := load(t, steps).Catalog
	if len(c.Reads) != maxReads || c.ReadsOmitted != 3 {
		t.Errorf("kept %d reads, omitted %d; want %d and 3", len(c.Reads), c.ReadsOmitted, maxReads)
	}
}
