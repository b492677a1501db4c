package mcpserve

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/toolcat"
)

// toolsArgs name a session, optionally the session whose catalog is its
// baseline, and where the list resumes.
type toolsArgs struct {
	Session  string `json:"session"`
	List     string `json:"list"`
	Baseline string `json:"baseline"`
	Cursor   string `json:"cursor"`
}

// toolsHead is the tools tool's answer but for its list: the catalog's
// state as `mcptrail tools --json` gives it and, against a baseline, the
// drift counted by rule.
type toolsHead struct {
	SessionID string `json:"session_id"`
	Listed    bool   `json:"listed"`
	Complete  bool   `json:"complete"`
	// Tools, Skills and Apps count the catalog's tools, skills and app
	// tools (tools --json lists the skills and apps).
	Tools  int `json:"tool_count"`
	Skills int `json:"skill_count"`
	Apps   int `json:"app_count"`
	// Baseline is the baseline session's id, "" without one; Drift counts
	// its changes by rule id (tool-added, tool-schema-loosened, …).
	Baseline   string         `json:"baseline,omitempty"`
	BaseListed bool           `json:"baseline_listed,omitempty"`
	Drift      map[string]int `json:"drift_by_rule,omitempty"`
}

// catalog answers the session's tool catalog, each tool (or with list,
// each skill or app tool) as `mcptrail tools --json` writes it; with a baseline session, the changes from its
// catalog to this one as the drift rules of check --tools-baseline name
// them (rules.CompareCatalogs), one item each instead.
func (s *Server) catalog(raw []byte) (*page, error) {
	var a toolsArgs
	if err := args(raw, &a); err != nil {
		return nil, err
	}
	snap, err := s.load(a.Session)
	if err != nil {
		return nil, err
	}
	c := toolcat.Of(snap)
	head := toolsHead{SessionID: c.Session, Listed: c.Listed, Complete: c.Complete, Tools: len(c.Tools), Skills: len(c.Skills), Apps: len(c.Apps)}
	var drift []rules.ToolChange
	if a.Baseline != "" {
		base, err := s.load(a.Baseline)
		if err != nil {
			return nil, fmt.Errorf("baseline: %w", err)
		}
		head.Baseline, head.BaseListed = base.Session.ID, rules.ToolList(base.Catalog) != nil
		drift = rules.CompareCatalogs(base.Catalog, snap.Catalog)
		head.Drift = map[string]int{}
		for i := range drift {
			head.Drift[drift[i].Kind]++
		}
	}
	l := &list{name: "tools", n: len(c.Tools),
		item: func(i, limit int) ([]byte, error) { return marshal(c.ToolJSON(i), limit) },
		line: func(i, limit int) string { return toolLine(c, i, limit) },
	}
	switch a.List {
	case "", "tools":
	case "skills":
		l = &list{name: "skills", n: len(c.Skills),
			item: func(i, limit int) ([]byte, error) { return marshal(c.SkillJSON(i), limit) },
			line: func(i, limit int) string {
				d := &c.Skills[i]
				return fmt.Sprintf("skill %s (%s), %s, hash %s", show(d.Key, limit), show(d.Name, limit), plural(len(d.Skill.Files), "file"), short(d.Hash))
			},
		}
	case "apps":
		l = &list{name: "apps", n: len(c.Apps),
			item: func(i, limit int) ([]byte, error) { return marshal(c.AppJSON(i), limit) },
			line: func(i, limit int) string {
				ap := &c.Apps[i]
				return fmt.Sprintf("app tool %s: %s, %s, %s read", show(ap.Tool, limit), show(ap.ResourceURI, limit), plural(ap.Calls, "call"), plural(ap.Reads, "time"))
			},
		}
	default:
		return nil, fmt.Errorf("list %q: want tools (the default), skills or apps", cut(a.List, 32))
	}
	if a.Baseline != "" {
		if a.List != "" && a.List != "tools" {
			return nil, fmt.Errorf("baseline compares the tools: leave list out")
		}
		l = &list{name: "drift", n: len(drift),
			item: func(i, limit int) ([]byte, error) { return marshal(&drift[i], limit) },
			line: func(i, limit int) string { return driftLine(&drift[i], limit) },
		}
	}
	start, err := cursor(a.Cursor, l.n)
	if err != nil {
		return nil, err
	}
	return &page{
		head:  func(limit int) ([]byte, error) { return marshal(&head, limit) },
		text:  func(limit int) string { return head.text(limit) },
		list:  l,
		start: start,
	}, nil
}

func (h *toolsHead) text(limit int) string {
	var b strings.Builder
	switch {
	case !h.Listed:
		fmt.Fprintf(&b, "session %s never got a tools/list result", show(h.SessionID, limit))
	case !h.Complete:
		fmt.Fprintf(&b, "session %s: %s in its latest tools/list, not read to its last page", show(h.SessionID, limit), plural(h.Tools, "tool"))
	default:
		fmt.Fprintf(&b, "session %s: %s in its latest tools/list", show(h.SessionID, limit), plural(h.Tools, "tool"))
	}
	fmt.Fprintf(&b, ", %s, %s\n", plural(h.Skills, "skill"), plural(h.Apps, "app tool"))
	if h.Baseline != "" {
		fmt.Fprintf(&b, "drift from baseline session %s: ", show(h.Baseline, limit))
		if len(h.Drift) == 0 {
			b.WriteString("none")
		}
		first := true
		for _, k := range slices.Sorted(maps.Keys(h.Drift)) {
			if n := h.Drift[k]; n > 0 {
				if !first {
					b.WriteString(", ")
				}
				first = false
				fmt.Fprintf(&b, "%s %d", k, n)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

func toolLine(c *toolcat.Catalog, i, limit int) string {
	d := &c.Tools[i]
	s := show(d.Name, limit)
	if d.Title != "" {
		s += " (" + show(d.Title, limit) + ")"
	}
	var args []string
	for _, a := range rules.Arguments(d.InputSchema) {
		n := a.Name
		if a.Required {
			n += "*"
		}
		if a.Type != "" {
			n += ":" + a.Type
		}
		args = append(args, show(n, limit))
	}
	if len(args) > 0 {
		s += " " + strings.Join(args, " ")
	}
	return s + " hash " + short(d.Hash)
}

// short is the first 12 hex digits of a definition hash, as tools prints it.
func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func driftLine(d *rules.ToolChange, limit int) string {
	s := show(d.Kind, limit) + " " + show(d.Tool, limit)
	if d.What != "" {
		s += ": " + show(d.What, limit)
	}
	if d.Old != "" || d.New != "" {
		s += fmt.Sprintf(" %q → %q", show(d.Old, limit), show(d.New, limit))
	}
	return s
}
