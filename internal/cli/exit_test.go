package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tui/source"
)

// TestExitCodeFor: each kind of error exits with its code however deeply
// it is wrapped, and a message is never changed by its kind.
func TestExitCodeFor(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		want ExitCode
	}{
		{"nil", nil, ExitOK},
		{"plain", errors.New("disk full"), ExitError},
		{"usage", usagef("bad flag"), ExitUsage},
		{"usage wrapped", fmt.Errorf("x: %w", usagef("bad flag")), ExitUsage},
		{"not found", notFoundf("no session %q in %s", "ab", "dir"), ExitInput},
		{"not found wrapped", fmt.Errorf("x: %w", notFoundf("no capture file a")), ExitInput},
		{"bad input", badInput(errors.New("junk")), ExitInput},
		{"not a capture", fmt.Errorf("reading a: %w", capture.ErrNotCapture), ExitInput},
		{"future format", fmt.Errorf("reading a: %w", capture.ErrFutureVersion), ExitInput},
		{"refused capture path", captureHint(fmt.Errorf("creating capture a: %w", capture.ErrExists)), ExitUsage},
		{"locked capture", captureHint(fmt.Errorf("creating capture a: %w", capture.ErrLocked)), ExitError},
		{"existing capture held by another run", captureHint(fmt.Errorf("creating capture a: %w (%w)", capture.ErrExists, &capture.LockedError{Path: "a"})), ExitError},
		{"state dir", captureHint(errors.New("creating sessions directory: denied")), ExitError},
		{"server status", &exitError{42}, 42},
		{"open: no session", fmt.Errorf("opening session %q of a: %w", "x", source.ErrNoSession), ExitInput},
		{"open: ambiguous", fmt.Errorf("opening session %q of a: %w", "x", source.ErrAmbiguous), ExitUsage},
		{"output written", outputError("out.json", "/d/.out.json.tmp-1", &fs.PathError{Op: "write", Path: "/d/.out.json.tmp-1", Err: errors.New("no space left on device")}), ExitError},
		// An os error that says "not exist" about an output is a failed
		// operation, not a missing input: only marked errors are 3.
		{"os not exist", fmt.Errorf("creating output a: %w", fs.ErrNotExist), ExitError},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := exitCodeFor(tc.err); got != tc.want {
				t.Errorf("exitCodeFor(%v) = %d, want %d", tc.err, got, tc.want)
			}
		})
	}
	if err := notFoundf("no session %q in %s", "ab", "dir"); err.Error() != `no session "ab" in dir` || !errors.Is(err, errNotFound) {
		t.Errorf("notFoundf: %q, Is(errNotFound) = %v", err, errors.Is(err, errNotFound))
	}
}

// TestListenError: an address in use names the address once and fails
// the operation (1); an address that cannot be one is a usage error (2).
func TestListenError(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	_, err = net.Listen("tcp", addr)
	if err == nil {
		t.Fatal("listening twice on one address succeeded")
	}
	got := listenError(addr, err)
	if want := "listening on " + addr + ": "; !strings.HasPrefix(got.Error(), want) || strings.Count(got.Error(), addr) != 1 {
		t.Errorf("in use: %q, want %q and the address once", got, want+"...")
	}
	if c := exitCodeFor(got); c != ExitError {
		t.Errorf("in use: exit %d, want %d", c, ExitError)
	}
	_, err = net.Listen("tcp", "nowhere")
	got = listenError("nowhere", err)
	if want := `--listen "nowhere": missing port in address`; got.Error() != want {
		t.Errorf("bad address: %q, want %q", got, want)
	}
	if c := exitCodeFor(got); c != ExitUsage {
		t.Errorf("bad address: exit %d, want %d", c, ExitUsage)
	}
}

// TestReason: the operating system's op and path go, the cause and its
// errors.Is stay.
func TestReason(t *testing.T) {
	t.Parallel()
	_, err := os.Open("no-such-file-here")
	r := reason(err)
	if r.Error() != "no such file or directory" && !strings.Contains(r.Error(), "cannot find") {
		t.Errorf("reason(%q) = %q", err, r)
	}
	if !errors.Is(r, fs.ErrNotExist) {
		t.Errorf("reason(%q) is not fs.ErrNotExist", err)
	}
	plain := errors.New("x")
	if reason(plain) != plain {
		t.Errorf("reason changed a plain error")
	}
}

// TestOutputError: a failed write of the temporary file names the output
// instead; an input error passes unchanged.
func TestOutputError(t *testing.T) {
	t.Parallel()
	tmp := "/d/.out.json.tmp-1"
	got := outputError("out.json", tmp, fmt.Errorf("writing events: %w", &fs.PathError{Op: "write", Path: tmp, Err: errors.New("no space left on device")}))
	if want := "writing out.json: no space left on device"; got.Error() != want {
		t.Errorf("outputError = %q, want %q", got, want)
	}
	in := fmt.Errorf("reading a.jsonl: %w", &fs.PathError{Op: "read", Path: "a.jsonl", Err: errors.New("input/output error")})
	if got := outputError("out.json", tmp, in); got != in {
		t.Errorf("outputError changed an input error: %q", got)
	}
}
