package transcript

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// pipePeers plays server and client against each other over pipes, with no
// proxy between them, and returns both errors.
func pipePeers(t *testing.T, server, client *Transcript) (serr, cerr error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := server.Serve(ctx, ServerStreams{In: c2sR, Out: s2cW, ErrOut: io.Discard}, nil)
		c2sR.CloseWithError(errors.New("server done"))
		s2cW.Close()
		done <- err
	}()
	cerr = client.Play(ctx, c2sW, s2cR, nil)
	s2cR.Close()
	return <-done, cerr
}

func mustParse(t *testing.T, s string) *Transcript {
	t.Helper()
	tr, err := Parse(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestPlayAgainstServe(t *testing.T) {
	t.Parallel()
	fixtures, _ := filepath.Glob("../../testdata/transcripts/*.transcript.jsonl")
	if len(fixtures) < 2 {
		t.Fatalf("found %d transcripts in testdata/transcripts", len(fixtures))
	}
	for _, path := range fixtures {
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			tr, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			serr, cerr := pipePeers(t, tr, tr)
			if serr != nil || cerr != nil {
				t.Fatalf("server: %v; client: %v", serr, cerr)
			}
		})
	}
}

func TestEdgeBytes(t *testing.T) {
	t.Parallel()
	const script = `{"dir":"c2s","after_ms":0,"raw":"{\"a\":1}\r"}
{"dir":"s2c","after_ms":0,"raw_b64":"/w=="}
{"dir":"stderr","after_ms":0,"raw":"log line"}
{"dir":"c2s","after_ms":1,"raw":"  {\"b\": 2}  ","noeol":true}
{"dir":"s2c","after_ms":0,"raw":"last","noeol":true}
`
	tr := mustParse(t, script)
	if serr, cerr := pipePeers(t, tr, tr); serr != nil || cerr != nil {
		t.Fatalf("server: %v; client: %v", serr, cerr)
	}
}

func TestMismatch(t *testing.T) {
	t.Parallel()
	server := mustParse(t, `{"dir":"c2s","after_ms":0,"raw":"{\"id\":1}"}`+"\n")
	client := mustParse(t, `{"dir":"c2s","after_ms":0,"raw":"{\"id\":2}"}`+"\n")
	serr, _ := pipePeers(t, server, client)
	var me *MismatchError
	if !errors.As(serr, &me) {
		t.Fatalf("server error = %v, want a MismatchError", serr)
	}
	if diff := cmp.Diff(`{"id":2}`, string(me.Got)); diff != "" {
		t.Errorf("Got (-want +got):\n%s", diff)
	}
}

func TestExtraInput(t *testing.T) {
	t.Parallel()
	server := mustParse(t, `{"dir":"c2s","after_ms":0,"raw":"a"}`+"\n")
	client := mustParse(t, `{"dir":"c2s","after_ms":0,"raw":"a"}`+"\n"+`{"dir":"c2s","after_ms":0,"raw":"b"}`+"\n")
	serr, _ := pipePeers(t, server, client)
	if !errors.Is(serr, ErrExtraInput) {
		t.Fatalf("server error = %v, want ErrExtraInput", serr)
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"bad dir", `{"dir":"up","after_ms":0,"raw":"x"}`, "is not c2s"},
		{"no raw", `{"dir":"c2s","after_ms":0}`, "neither raw"},
		{"both", `{"dir":"c2s","after_ms":0,"raw":"x","raw_b64":"eA=="}`, "both raw"},
		{"newline", `{"dir":"c2s","after_ms":0,"raw":"a\nb"}`, "newline"},
		{"unknown member", `{"dir":"c2s","after_ms":0,"raw":"x","delay":3}`, "unknown"},
		{"noeol not last", `{"dir":"c2s","after_ms":0,"raw":"x","noeol":true}` + "\n" + `{"dir":"c2s","after_ms":0,"raw":"y"}`, "not the last"},
		{"negative delay", `{"dir":"c2s","after_ms":-1,"raw":"x"}`, "negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Parse error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestOffsetsMS(t *testing.T) {
	t.Parallel()
	tr := mustParse(t, `{"dir":"c2s","after_ms":5,"raw":"a"}
{"dir":"s2c","after_ms":10.5,"raw":"b"}
`)
	if diff := cmp.Diff([]float64{5, 15.5}, tr.OffsetsMS()); diff != "" {
		t.Errorf("OffsetsMS (-want +got):\n%s", diff)
	}
}
