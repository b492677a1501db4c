package check

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mcptrail/mcptrail/internal/finding"
)

// SARIF 2.1.0 names (OASIS sarif-v2.1.0, §3).
const (
	sarifVersion = "2.1.0"
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	// fingerprintKey is the partialFingerprints key of Item.Fingerprint;
	// its version changes if the fingerprint's recipe ever does.
	fingerprintKey = "mcptrail/v1"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	Results    []sarifResult `json:"results"`
	Properties sarifRunProps `json:"properties"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string            `json:"name"`
	Version        string            `json:"version,omitempty"`
	InformationURI string            `json:"informationUri"`
	Rules          []sarifDescriptor `json:"rules"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifDescriptor struct {
	ID                   string        `json:"id"`
	ShortDescription     sarifText     `json:"shortDescription"`
	FullDescription      *sarifText    `json:"fullDescription,omitempty"`
	Help                 *sarifText    `json:"help,omitempty"`
	HelpURI              string        `json:"helpUri,omitempty"`
	DefaultConfiguration sarifConfig   `json:"defaultConfiguration"`
	Properties           sarifRuleProp `json:"properties"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifRuleProp struct {
	Category string   `json:"category,omitempty"`
	Spec     string   `json:"spec,omitempty"`
	Tags     []string `json:"tags,omitempty"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
	Properties          sarifResultProps  `json:"properties"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

type sarifResultProps struct {
	SessionID string `json:"sessionId,omitempty"`
	Label     string `json:"label,omitempty"`
	Seq       uint64 `json:"seq"`
	Call      string `json:"call,omitempty"`
}

// sarifRunProps carries what SARIF has no place for: the threshold, and
// the findings the baseline suppressed (they are counted, not reported).
type sarifRunProps struct {
	FailOn     finding.Severity  `json:"failOn"`
	Suppressed int               `json:"suppressed"`
	Sessions   []sarifSessionRow `json:"sessions"`
}

type sarifSessionRow struct {
	URI        string `json:"uri"`
	SessionID  string `json:"sessionId,omitempty"`
	Label      string `json:"label,omitempty"`
	Findings   int    `json:"findings"`
	Suppressed int    `json:"suppressed"`
	Torn       bool   `json:"torn,omitempty"`
	Corrupt    int    `json:"corruptLines,omitempty"`
}

// WriteSARIF writes r as one SARIF 2.1.0 log: one run, one
// reportingDescriptor per enabled rule (help text, spec reference, default
// level), one result per item located in its capture file by line, with
// partialFingerprints from Item.Fingerprint. The findings a baseline
// suppressed are counted in the run's properties.
func WriteSARIF(w io.Writer, r *Report) error {
	rules, index := ruleTable(r)
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name: "mcptrail", Version: r.Tool, InformationURI: home,
			Rules: make([]sarifDescriptor, 0, len(rules)),
		}},
		Results:    []sarifResult{},
		Properties: sarifRunProps{FailOn: r.FailOn, Suppressed: suppressed(r), Sessions: []sarifSessionRow{}},
	}
	for _, ru := range rules {
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, descriptor(ru))
	}
	for i := range r.Results {
		res := &r.Results[i]
		uri := artifactURI(res.Path)
		run.Properties.Sessions = append(run.Properties.Sessions, sarifSessionRow{
			URI: uri, SessionID: res.SessionID, Label: res.Label,
			Findings: len(res.Items), Suppressed: res.Suppressed,
			Torn: res.Damage.Torn, Corrupt: res.Damage.Corrupt,
		})
		for j := range res.Items {
			run.Results = append(run.Results, sarifResultOf(res, &res.Items[j], uri, index[res.Items[j].Rule], rules))
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}}); err != nil {
		return fmt.Errorf("writing SARIF: %w", err)
	}
	return nil
}

// descriptor is ru's reportingDescriptor (SARIF §3.49).
func descriptor(ru finding.Rule) sarifDescriptor {
	d := sarifDescriptor{
		ID:                   ru.ID,
		ShortDescription:     sarifText{Text: ru.Summary},
		DefaultConfiguration: sarifConfig{Level: sarifLevel(ru.Severity)},
		Properties:           sarifRuleProp{Category: string(ru.Category), Spec: ru.Spec},
	}
	if ru.Category != "" {
		d.Properties.Tags = []string{"mcp", string(ru.Category)}
		d.HelpURI = rulesDoc + "#" + ru.ID
	}
	if ru.Help != "" {
		d.FullDescription = &sarifText{Text: ru.Help}
		text, md := ru.Help, markdownEscape(ru.Help)
		if ru.Spec != "" {
			text += "\n\nSpec: " + ru.Spec
			md += "\n\n**Spec:** " + markdownEscape(ru.Spec)
		}
		d.Help = &sarifText{Text: text, Markdown: md}
	}
	return d
}

// sarifResultOf is the SARIF result of it, raised in res (SARIF §3.27).
func sarifResultOf(res *Result, it *Item, uri string, ruleIndex int, rules []finding.Rule) sarifResult {
	msg := it.Message
	if msg == "" {
		msg = rules[ruleIndex].Summary
	}
	loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: uri}}}
	if it.Line > 0 {
		loc.PhysicalLocation.Region = &sarifRegion{StartLine: it.Line}
	}
	out := sarifResult{
		RuleID: it.Rule, RuleIndex: ruleIndex, Level: sarifLevel(it.Severity),
		Message:    sarifText{Text: msg},
		Locations:  []sarifLocation{loc},
		Properties: sarifResultProps{SessionID: res.SessionID, Label: res.Label, Seq: it.Seq, Call: it.Call},
	}
	if it.Fingerprint != "" {
		out.PartialFingerprints = map[string]string{fingerprintKey: it.Fingerprint}
	}
	return out
}

// sarifLevel is SARIF's level for severity s (SARIF §3.27.10).
func sarifLevel(s finding.Severity) string {
	switch s {
	case finding.Error:
		return "error"
	case finding.Warning:
		return "warning"
	}
	return "note"
}

// markdownEscape backslash-escapes the characters GitHub-flavoured
// Markdown would read as markup, so help text shows as written.
func markdownEscape(s string) string {
	const special = "\\`*_{}[]<>()#+-.!|~"
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(special, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
