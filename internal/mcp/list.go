package mcp

import (
	"github.com/go-json-experiment/json/jsontext"
	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// List methods: the client asks the server what it offers. Each result
// holds one page of definitions and, when more follow, a nextCursor the
// client sends back as params.cursor (spec: pagination).
const (
	MethodToolsList             = "tools/list"
	MethodPromptsList           = "prompts/list"
	MethodResourcesList         = "resources/list"
	MethodResourceTemplatesList = "resources/templates/list"
)

// Notifications that say a list changed. In 2026-07-28 they travel only on
// a subscriptions/listen stream; in the legacy eras anywhere from the
// server. notifications/resources/list_changed covers resource templates
// too: the spec has no separate one for them.
const (
	MethodToolsListChanged     = "notifications/tools/list_changed"
	MethodPromptsListChanged   = "notifications/prompts/list_changed"
	MethodResourcesListChanged = "notifications/resources/list_changed"
)

// ListKind describes one list method.
type ListKind struct {
	// Method is the list method ("tools/list").
	Method string
	// Member is the result member holding the page's definitions
	// ("tools", "prompts", "resources", "resourceTemplates").
	Member string
	// Key is the definition member that identifies it: "name" for tools
	// and prompts, "uri" for resources, "uriTemplate" for templates.
	Key string
	// Changed is the notification that says the list changed.
	Changed string
}

// ListKinds returns the list methods, in a fixed order: tools, prompts,
// resources, resource templates, and the Skills extension's skills/list
// (skills.go), which has no list_changed notification.
func ListKinds() [5]ListKind {
	return [5]ListKind{
		{MethodToolsList, "tools", "name", MethodToolsListChanged},
		{MethodPromptsList, "prompts", "name", MethodPromptsListChanged},
		{MethodResourcesList, "resources", "uri", MethodResourcesListChanged},
		{MethodResourceTemplatesList, "resourceTemplates", "uriTemplate", MethodResourcesListChanged},
		{MethodSkillsList, "skills", "uri", ""},
	}
}

// ListMethod returns the index in ListKinds of a list method, or -1.
func ListMethod(method string) int {
	switch method {
	case MethodToolsList:
		return 0
	case MethodPromptsList:
		return 1
	case MethodResourcesList:
		return 2
	case MethodResourceTemplatesList:
		return 3
	case MethodSkillsList:
		return 4
	}
	return -1
}

// ListPage is one page of a list result. Raw values alias the result they
// were parsed from; copy them to keep them.
type ListPage struct {
	// Items holds the raw elements of the kind's member; nil when the
	// member is absent or not an array.
	Items []jsontext.Value
	// NextCursor is result.nextCursor when it is a non-empty string: more
	// pages follow. An absent, empty or non-string nextCursor ends the
	// listing.
	NextCursor string
}

// ParseListPage reads one page of a list result for the kind k. A member
// given twice counts as its last, as JSON.parse (and so a JavaScript
// client) reads it.
func ParseListPage(k ListKind, result jsontext.Value) ListPage {
	var p ListPage
	eachMember(result, func(name, val []byte) bool {
		switch string(name) {
		case k.Member:
			p.Items = nil
			jsonraw.EachElement(val, func(item []byte) { p.Items = append(p.Items, item) })
		case "nextCursor":
			p.NextCursor, _ = jsonraw.String(val)
		}
		return true
	})
	return p
}

// HasCursor reports whether a list request's params carry a cursor: the
// request asks for a later page, not the first.
func HasCursor(params jsontext.Value) bool {
	found := false
	eachMember(params, func(name, val []byte) bool {
		if string(name) == "cursor" {
			found = len(val) > 0 && val[0] == '"'
			return false
		}
		return true
	})
	return found
}

// Definition is what a catalog keeps of one Tool, Prompt, Resource or
// ResourceTemplate of a list result. Raw values alias the result; copy
// them to keep them.
type Definition struct {
	// Key identifies the definition within its list: the value of the
	// kind's Key member ("" when absent or not a string).
	Key string
	// Name, Title, Description, URI, URITemplate and MimeType are the
	// string members of those names ("" when absent or not strings); a
	// skill's Name and Description are those of its frontmatter.
	Name        string
	Title       string
	Description string
	URI         string
	URITemplate string
	MimeType    string
	// InputSchema, OutputSchema (tools), Arguments (prompts) and
	// Annotations are raw; nil when absent.
	InputSchema  jsontext.Value
	OutputSchema jsontext.Value
	Arguments    jsontext.Value
	Annotations  jsontext.Value
	// UI is the tool's MCP Apps link (_meta.ui, apps.go); zero for other
	// kinds and for a tool without one.
	UI ToolUI
	// Skill is what a skills/list entry says of the skill's files; zero
	// for other kinds.
	Skill Skill
}

// ParseDefinition reads one element of a list result. It reports false
// when the element is not a JSON object.
func ParseDefinition(k ListKind, item jsontext.Value) (Definition, bool) {
	var d Definition
	ok := isObject(item) && eachMember(item, func(name, val []byte) bool {
		switch string(name) {
		case "name":
			d.Name, _ = jsonraw.String(val)
		case "title":
			d.Title, _ = jsonraw.String(val)
		case "description":
			d.Description, _ = jsonraw.String(val)
		case "uri":
			d.URI, _ = jsonraw.String(val)
		case "uriTemplate":
			d.URITemplate, _ = jsonraw.String(val)
		case "mimeType":
			d.MimeType, _ = jsonraw.String(val)
		case "inputSchema":
			d.InputSchema = val
		case "outputSchema":
			d.OutputSchema = val
		case "arguments":
			d.Arguments = val
		case "annotations":
			d.Annotations = val
		case "frontmatter":
			if k.Method == MethodSkillsList {
				d.Name, _ = jsonraw.String(jsonraw.Member(val, "name"))
				d.Description, _ = jsonraw.String(jsonraw.Member(val, "description"))
			}
		case MemberMeta:
			if k.Method == MethodToolsList {
				d.UI = ParseToolUI(val)
			}
		}
		return true
	})
	if !ok {
		return Definition{}, false
	}
	if k.Method == MethodSkillsList {
		d.Skill = ParseSkill(item)
	}
	switch k.Key {
	case "uri":
		d.Key = d.URI
	case "uriTemplate":
		d.Key = d.URITemplate
	default:
		d.Key = d.Name
	}
	return d, true
}
