package corpus

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/termtext"
	"github.com/mcptrail/mcptrail/internal/transcript"
)

// checkStderr asserts, from the transcript and not from a golden, that
// every line the server wrote on its stderr is in both exports, in order
// and byte for byte: in the JSON export's stderr array (text, or base64
// for bytes that are not UTF-8; noeol on a last line without a newline),
// and in the text export's stderr section, escaped for the terminal.
func checkStderr(t *testing.T, tr *transcript.Transcript, jsonOut, txtOut string) {
	t.Helper()
	type line struct {
		Bytes string
		NoEOL bool
	}
	var want []line
	var wantTxt []string
	for _, f := range tr.Frames {
		if f.Dir == transcript.Stderr {
			want = append(want, line{string(f.Raw), f.NoEOL})
			wantTxt = append(wantTxt, fmt.Sprintf("  %-6d ", len(wantTxt)))
			wantTxt[len(wantTxt)-1] += "|" + termtext.Escape(string(f.Raw))
		}
	}
	var doc struct {
		Stderr []struct {
			Text  *string `json:"text"`
			B64   *string `json:"b64"`
			NoEOL bool    `json:"noeol"`
		} `json:"stderr"`
	}
	if err := json.Unmarshal([]byte(jsonOut), &doc); err != nil {
		t.Fatal(err)
	}
	var got []line
	for _, l := range doc.Stderr {
		switch {
		case l.Text != nil:
			got = append(got, line{*l.Text, l.NoEOL})
		case l.B64 != nil:
			b, err := base64.StdEncoding.DecodeString(*l.B64)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, line{string(b), l.NoEOL})
		default:
			t.Errorf("JSON stderr line without text or b64")
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("JSON export's stderr lines (-transcript +export):\n%s", diff)
	}
	if diff := cmp.Diff(wantTxt, txtStderr(txtOut)); diff != "" {
		t.Errorf("text export's stderr lines (-transcript +export):\n%s", diff)
	}
}

// txtStderr returns the rows of the text export's stderr section as
// "  INDEX |TEXT" (the time column cut out).
func txtStderr(out string) []string {
	var rows []string
	in := false
	for l := range strings.SplitSeq(out, "\n") {
		switch {
		case strings.HasPrefix(l, "stderr ("):
			in = true
		case !in || strings.HasPrefix(l, "  LINE ") || strings.HasPrefix(l, "  (line "):
		case !strings.HasPrefix(l, "  "):
			in = false
		default:
			// "  " + index padded to 6 + " " + time padded to 9 + " " + text
			rows = append(rows, l[:9]+"|"+l[min(19, len(l)):])
		}
	}
	return rows
}
