package check

import (
	"fmt"
	"io"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/finding"
)

// jsonReport is the JSON shape of a Report (docs/check.md): the Report's
// fields, snake_case, and failed.
type jsonReport struct {
	Tool    string           `json:"tool"`
	FailOn  finding.Severity `json:"fail_on"`
	Failed  bool             `json:"failed"`
	Rules   []finding.Rule   `json:"rules"`
	Results []jsonResult     `json:"results"`
}

type jsonResult struct {
	Path       string     `json:"path"`
	SessionID  string     `json:"session_id"`
	Label      string     `json:"label,omitempty"`
	Damage     jsonDamage `json:"damage"`
	Items      []Item     `json:"items"`
	Suppressed int        `json:"suppressed"`
}

type jsonDamage struct {
	Torn         bool  `json:"torn"`
	TornBytes    int64 `json:"torn_bytes"`
	Corrupt      int   `json:"corrupt"`
	CorruptLines []int `json:"corrupt_lines"`
}

// WriteJSON writes r as one JSON object and a newline.
func WriteJSON(w io.Writer, r *Report) error {
	out := jsonReport{Tool: r.Tool, FailOn: r.FailOn, Failed: r.Failed(), Rules: r.Rules, Results: make([]jsonResult, len(r.Results))}
	if out.Rules == nil {
		out.Rules = []finding.Rule{}
	}
	for i, res := range r.Results {
		d := res.Damage
		out.Results[i] = jsonResult{Path: res.Path, SessionID: res.SessionID, Label: res.Label, Items: res.Items, Suppressed: res.Suppressed,
			Damage: jsonDamage{Torn: d.Torn, TornBytes: d.TornBytes, Corrupt: d.Corrupt, CorruptLines: d.CorruptLines}}
		if out.Results[i].Items == nil {
			out.Results[i].Items = []Item{}
		}
		if d.CorruptLines == nil {
			out.Results[i].Damage.CorruptLines = []int{}
		}
	}
	b, err := json.Marshal(&out, json.Deterministic(true), jsontext.EscapeForHTML(false))
	if err != nil {
		return fmt.Errorf("encoding report: %w", err)
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("writing report: %w", err)
	}
	return nil
}
