package check

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcptrail/mcptrail/internal/testbin"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

func TestSARIFValidates(t *testing.T) {
	t.Parallel()
	schema := testbin.SARIFSchema(t)
	for name, r := range map[string]*Report{
		"report":  testReport(t),
		"empty":   {Tool: "0.1.0-test", FailOn: "error"},
		"no tool": {Results: []Result{{Path: "/abs/a b.jsonl"}}},
	} {
		var buf bytes.Buffer
		if err := WriteSARIF(&buf, r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		testbin.ValidateSARIF(t, schema, buf.Bytes())
	}
	// The schema is really applied: a level SARIF does not have fails.
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, testReport(t)); err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(buf.Bytes(), []byte(`"level": "note"`), []byte(`"level": "info"`), 1)
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(bad))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(bad, buf.Bytes()) || schema.Validate(v) == nil {
		t.Error("the SARIF schema accepted a result of level info")
	}
}

// sarifRead is what the test reads back of a SARIF log.
type sarifRead struct {
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name, Version string
				Rules         []struct {
					ID                   string
					ShortDescription     struct{ Text string }
					Help                 struct{ Text, Markdown string }
					DefaultConfiguration struct{ Level string }
					Properties           struct{ Category, Spec string }
				}
			}
		}
		Results []struct {
			RuleID    string
			RuleIndex int
			Level     string
			Message   struct{ Text string }
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct{ URI string }
					Region           *struct{ StartLine int }
				}
			}
			PartialFingerprints map[string]string
			Properties          struct {
				SessionID string
				Seq       uint64
				Call      string
			}
		}
		Properties struct {
			FailOn     string
			Suppressed int
		}
	}
}

func TestSARIFContent(t *testing.T) {
	t.Parallel()
	r := testReport(t)
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, r); err != nil {
		t.Fatal(err)
	}
	var log sarifRead
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatalf("%v\n%s", err, buf.Bytes())
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("version %q with %d runs; want 2.1.0 with one", log.Version, len(log.Runs))
	}
	run := log.Runs[0]
	d := run.Tool.Driver
	if d.Name != "mcptrail" || d.Version != "0.1.0-test" {
		t.Errorf("driver %q %q", d.Name, d.Version)
	}
	checkSARIFRules(t, r, &log)
	checkSARIFResults(t, &log)
	if p := run.Properties; p.Suppressed != 3 || p.FailOn != "warning" {
		t.Errorf("run properties %+v; want 3 suppressed, failOn warning", p)
	}
}

// checkSARIFRules checks the log's reportingDescriptors describe r's rules.
func checkSARIFRules(t *testing.T, r *Report, log *sarifRead) {
	t.Helper()
	d := log.Runs[0].Tool.Driver
	type rule struct{ ID, Level, Category, Summary string }
	var gotRules, wantRules []rule
	for i, ru := range r.Rules {
		wantRules = append(wantRules, rule{ru.ID, []string{"error", "warning", "note", "error"}[i], string(ru.Category), ru.Summary})
		if d.Rules[i].Help.Text == "" || d.Rules[i].Help.Markdown == "" || d.Rules[i].Properties.Spec != ru.Spec {
			t.Errorf("rule %s: help %+v spec %q; want its help and spec %q", ru.ID, d.Rules[i].Help, d.Rules[i].Properties.Spec, ru.Spec)
		}
	}
	for _, ru := range d.Rules {
		gotRules = append(gotRules, rule{ru.ID, ru.DefaultConfiguration.Level, ru.Properties.Category, ru.ShortDescription.Text})
	}
	if diff := cmp.Diff(wantRules, gotRules); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
}

// checkSARIFResults checks the log's results are testReport's items.
func checkSARIFResults(t *testing.T, log *sarifRead) {
	t.Helper()
	run := log.Runs[0]
	d := run.Tool.Driver

	type result struct {
		Rule, Level, Msg, URI string
		Line                  int // 0: no region
		FP, Session, Call     string
		Seq                   uint64
	}
	var got []result
	for _, res := range run.Results {
		if d.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %s has ruleIndex %d, which is %s", res.RuleID, res.RuleIndex, d.Rules[res.RuleIndex].ID)
		}
		pl := res.Locations[0].PhysicalLocation
		line := 0
		if pl.Region != nil {
			line = pl.Region.StartLine
		}
		got = append(got, result{res.RuleID, res.Level, res.Message.Text, pl.ArtifactLocation.URI, line,
			res.PartialFingerprints["mcptrail/v1"], res.Properties.SessionID, res.Properties.Call, res.Properties.Seq})
	}
	const uri = "captures/run%20one.jsonl"
	want := []result{
		{"invalid-frame", "error", "line is not JSON", uri, 4, "fp-invalid", "s-one", "", 3},
		{"cancel-unknown-request", "note", "cancelled an unknown request", uri, 0, "fp-cancel", "s-one", "", 0},
		{"late-result", "warning", "id 7 answered late", uri, 8, "fp-late", "s-one", "tools/call create_account", 7},
		{"invalid-frame", "error", hostile, uri, 10, "fp-hostile", "s-one", "", 9},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}

func TestMarkdownEscape(t *testing.T) {
	t.Parallel()
	got := markdownEscape("a `_meta` *x* [l](u) <b> #1 | ok")
	want := "a \\`\\_meta\\` \\*x\\* \\[l\\]\\(u\\) \\<b\\> \\#1 \\| ok"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("markdownEscape (-want +got):\n%s", diff)
	}
}
