package sdk_test

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// export mirrors the parts of `mcptrail export -T json` the tests read
// (docs/export-json.md). Absent optional keys decode to zero or nil.
type export struct {
	Session    exportSession     `json:"session"`
	Frames     []exportFrame     `json:"frames"`
	Calls      []exportCall      `json:"calls"`
	Operations []exportOperation `json:"operations"`
	Summary    exportSummary     `json:"summary"`
	Findings   []exportFinding   `json:"findings"`
	// Elicitations is the ledger (ledger_test.go); absent without one.
	Elicitations []exportElicitation `json:"elicitations"`
	// Catalog is what the server listed (catalog_test.go); absent without.
	Catalog *exportCatalog `json:"catalog"`
}

type exportSession struct {
	ID               string     `json:"id"`
	Transport        string     `json:"transport"`
	Command          []string   `json:"command"`
	Format           int        `json:"format"`
	Ended            bool       `json:"ended"`
	Exit             *int       `json:"exit"`
	Signal           string     `json:"signal"`
	Eras             []string   `json:"eras"`
	ProtocolVersions []string   `json:"protocol_versions"`
	Client           exportPeer `json:"client"`
	Server           exportPeer `json:"server"`
	Damage           struct {
		Torn    bool `json:"torn"`
		Corrupt int  `json:"corrupt"`
	} `json:"damage"`
	LostFrames int64 `json:"lost_frames"`
	LostBytes  int64 `json:"lost_bytes"`
}

type exportPeer struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	Elicitation *struct {
		Form bool `json:"form"`
		URL  bool `json:"url"`
	} `json:"elicitation"`
}

type exportFrame struct {
	Seq    uint64         `json:"seq"`
	Time   time.Time      `json:"time"`
	Dir    string         `json:"dir"`
	Kind   string         `json:"kind"`
	ID     jsontext.Value `json:"id"`
	Method string         `json:"method"`
	Size   int            `json:"size"`
	Call   *int           `json:"call"`
	Msg    jsontext.Value `json:"msg"`
	Text   *string        `json:"text"`
	B64    []byte         `json:"b64"`
}

type exportCall struct {
	Index           int            `json:"index"`
	Dir             string         `json:"dir"`
	ID              jsontext.Value `json:"id"`
	Method          string         `json:"method"`
	Target          string         `json:"target"`
	Era             string         `json:"era"`
	ProtocolVersion string         `json:"protocol_version"`
	RequestSeq      uint64         `json:"request_seq"`
	ResponseSeq     uint64         `json:"response_seq"`
	DurationMS      float64        `json:"duration_ms"`
	Status          string         `json:"status"`
	ResultType      string         `json:"result_type"`
	Operation       *int           `json:"operation"`
	Round           int            `json:"round"`
	Parent          *int           `json:"parent"`
	Attribution     string         `json:"attribution"`
}

type exportOperation struct {
	Index      int            `json:"index"`
	Method     string         `json:"method"`
	Target     string         `json:"target"`
	Root       int            `json:"root"`
	RootID     jsontext.Value `json:"root_id"`
	Status     string         `json:"status"`
	DurationMS float64        `json:"duration_ms"`
	WaitMS     float64        `json:"wait_ms"`
	ToolMS     float64        `json:"tool_ms"`
	Rounds     []exportRound  `json:"rounds"`
}

type exportRound struct {
	Call          int            `json:"call"`
	ID            jsontext.Value `json:"id"`
	Pairing       string         `json:"pairing"`
	InputRequests []struct {
		Key    string `json:"key"`
		Method string `json:"method"`
	} `json:"input_requests"`
	HasState bool `json:"has_state"`
}

type exportSummary struct {
	Counts struct {
		Records int   `json:"records"`
		Frames  int   `json:"frames"`
		C2S     int   `json:"c2s"`
		S2C     int   `json:"s2c"`
		Bytes   int64 `json:"bytes"`
		Invalid int   `json:"invalid"`
		Stderr  int   `json:"stderr"`
	} `json:"counts"`
	Methods []exportStat `json:"methods"`
	Tools   []exportStat `json:"tools"`
	// Elicitations counts the ledger's rows; absent without a ledger.
	Elicitations *struct {
		Mode   map[string]int `json:"mode"`
		Action map[string]int `json:"action"`
		Status map[string]int `json:"status"`
	} `json:"elicitations"`
}

type exportStat struct {
	Name   string `json:"name"`
	Count  int    `json:"count"`
	Errors int    `json:"errors"`
}

type exportFinding struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Seq      uint64 `json:"seq"`
	Message  string `json:"message"`
}

// runExport runs `mcptrail export -T json capture` and decodes its output.
func runExport(t *testing.T, capture string) *export {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bins.mcptrail, "export", "-T", "json", capture)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcptrail export -T json %s: %v\nstderr:\n%s", capture, err, stderr.Bytes())
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("export of %s:\n%s", capture, head(stdout.Bytes(), 64<<10))
		}
	})
	checkClean(t, capture) // check_test.go
	var x export
	if err := json.Unmarshal(stdout.Bytes(), &x); err != nil {
		t.Fatalf("decoding export JSON: %v\n%s", err, head(stdout.Bytes(), 4000))
	}
	return &x
}

func head(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

// frameAt returns the frame with the given seq.
func (x *export) frameAt(t *testing.T, seq uint64) exportFrame {
	t.Helper()
	for _, f := range x.Frames {
		if f.Seq == seq {
			return f
		}
	}
	t.Fatalf("no frame with seq %d", seq)
	return exportFrame{}
}

// unmarshalMsg decodes frame f's message into v.
func unmarshalMsg(t *testing.T, f exportFrame, v any) {
	t.Helper()
	if len(f.Msg) == 0 {
		t.Fatalf("frame %d has no msg", f.Seq)
	}
	if err := json.Unmarshal(f.Msg, v); err != nil {
		t.Fatalf("decoding frame %d: %v", f.Seq, err)
	}
}

// checkFindings fails the test on any error-severity finding and on any
// finding of the elicitation and tool-definition rules (real SDK traffic
// must raise none: issue 13), and logs the rest.
func (x *export) checkFindings(t *testing.T) {
	t.Helper()
	for _, f := range x.Findings {
		if f.Severity == "error" || strings.HasPrefix(f.Rule, "elicitation-") || strings.HasPrefix(f.Rule, "tool-") || f.Rule == "approval-missing" {
			t.Errorf("error finding %s at seq %d: %s", f.Rule, f.Seq, f.Message)
		} else {
			t.Logf("finding %s (%s) at seq %d: %s", f.Rule, f.Severity, f.Seq, f.Message)
		}
	}
}

// checkCounts checks the summary counts against the frames list.
func (x *export) checkCounts(t *testing.T) {
	t.Helper()
	c := x.Summary.Counts
	if c.Frames != len(x.Frames) || c.C2S+c.S2C != c.Frames {
		t.Errorf("counts: frames %d, c2s %d, s2c %d; the export lists %d frames", c.Frames, c.C2S, c.S2C, len(x.Frames))
	}
	if c.Invalid != 0 {
		t.Errorf("counts.invalid = %d, want 0", c.Invalid)
	}
	if c.Stderr == 0 {
		t.Errorf("counts.stderr = 0, want the server's stderr lines captured")
	}
	var prev uint64
	for _, f := range x.Frames {
		if f.Seq <= prev {
			t.Errorf("frame seq %d follows %d: not increasing", f.Seq, prev)
		}
		prev = f.Seq
		if f.Kind == "invalid" {
			t.Errorf("frame %d is invalid", f.Seq)
		}
	}
}
