package rules

import "github.com/mcptrail/mcptrail/internal/finding"

// The sources of the extension rules, by repository and path.
const (
	skillsSpec = "modelcontextprotocol/ext-skills specification/stable/skills.mdx "
	appsSpec   = "modelcontextprotocol/ext-apps specification/draft/apps.mdx "
	tasksSpec  = "modelcontextprotocol/ext-tasks specification/draft/tasks.md "
)

// skillRules are the Skills extension's rules (skills.go).
func skillRules() []finding.Rule {
	const c = finding.Protocol
	return []finding.Rule{
		{ID: finding.SkillDigestMismatch, Category: c, Severity: finding.Error,
			Summary: "a skill file read does not hash to the digest its skill entry lists",
			Help: "A host MUST verify every file of a skill it reads against the digest of the skill's entry (skills/list or " +
				"skills/get, the latest seen before the read) and MUST NOT use content that does not match: it is corrupted, " +
				"tampered with, or stale. mcptrail hashes the raw bytes of the resources/read content (a text as UTF-8, line " +
				"ends untouched; a blob decoded). A supply-chain signal; a match proves only that entry and content agree, " +
				"since the same server supplies both.",
			Spec: skillsSpec + "§ Integrity and Verification (Verification on Read; Digests Are Not a Trust Anchor)"},
		{ID: finding.SkillSizeMismatch, Category: c, Severity: finding.Error,
			Summary: "a skill file read is not the size its skill entry lists",
			Help: "Each file of a skill entry carries size, the byte length of its raw content. A read whose length differs is " +
				"a verification failure equivalent to a digest mismatch, whether or not the digest is computed.",
			Spec: skillsSpec + "§ Resources; § Verification on Read"},
		{ID: finding.SkillUnlistedFile, Category: c, Severity: finding.Warning,
			Summary: "a file under a skill's root was read that its skill entry does not list",
			Help: "A skill entry's resources is complete: an unlisted file is a change to the skill, and a host acting on the " +
				"skill MUST treat its read as a verification failure. It may also be an ordinary read outside the skill's " +
				"acting window, which a proxy cannot see; refresh the entry (skills/get) before reading it.",
			Spec: skillsSpec + "§ The Acting Window and the Held Entry; § Directory Reads and the Held Entry"},
		{ID: finding.SkillEntryInvalid, Category: c, Severity: finding.Error,
			Summary: "a skill entry breaks the entry's shape (resources, digests, SKILL.md, name)",
			Help: "A Skill entry's resources is REQUIRED and is an array or \"dynamic\" (else hosts MUST NOT load it); an array " +
				"lists SKILL.md itself and only files within the skill's directory, each with a digest \"sha256:\" and 64 " +
				"lowercase hex digits and a size; the entry's uri names a SKILL.md whose directory's last segment is " +
				"frontmatter.name.",
			Spec: skillsSpec + "§ Skill Entries (Resources, Frontmatter); § Resource Mapping"},
		{ID: finding.SkillDirectoryUndeclared, Category: c, Severity: finding.Error,
			Summary: "the client called resources/directory/read, which the server did not declare (directoryRead: true)",
			Help: "Clients MUST NOT call resources/directory/read against a server that has not declared directoryRead: true in " +
				"its io.modelcontextprotocol/skills extension; such a server need not know the method. Raised only when the " +
				"server's capabilities were seen (initialize or server/discover).",
			Spec: skillsSpec + "§ Capability Negotiation; § Error Handling"},
		{ID: finding.SkillNoResourcesCap, Category: c, Severity: finding.Error,
			Summary: "a server declares the Skills extension without the resources capability",
			Help: "Skill files are served through resources/read, so a server declaring io.modelcontextprotocol/skills MUST also " +
				"declare the resources capability; a client that checks it will not read the skills.",
			Spec: skillsSpec + "§ Capability Negotiation"},
	}
}

// appRules are the MCP Apps rules (apps.go).
func appRules() []finding.Rule {
	const c = finding.Protocol
	return []finding.Rule{
		{ID: finding.AppResourceNotRead, Category: c, Severity: finding.Info,
			Summary: "an app tool was called, but the host never read its UI resource",
			Help: "A tool with _meta.ui.resourceUri is rendered by the host from that ui:// resource, which it MUST fetch with " +
				"resources/read (it MAY have cached it from an earlier session). A call to the tool with no read of its " +
				"resource in the session is the usual sign of an app that does not render: a host without MCP Apps support, " +
				"or one that did not match the uri.",
			Spec: appsSpec + "§ Resource Discovery (Behavior)"},
		{ID: finding.AppResourceInvalid, Category: c, Severity: finding.Error,
			Summary: "an app tool's UI resource is not a ui:// uri, or was read with another mimeType",
			Help: "A UI resource's uri MUST start with ui:// and its content's mimeType MUST be text/html;profile=mcp-app; a host " +
				"is not required to render anything else.",
			Spec: appsSpec + "§ UI Resource Format (Content Requirements)"},
	}
}
