package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// openExportInput opens what the export argument names: "" the newest
// session, "-" standard input, an existing file, else a session id or
// unique id prefix in the state directory. It returns a name for messages.
func openExportInput(ios *IOStreams, arg string) (io.ReadCloser, string, error) {
	if arg == "-" {
		return io.NopCloser(ios.In), "standard input", nil
	}
	path, err := resolveCapture(ios, arg)
	if err != nil {
		return nil, "", err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, "", fmt.Errorf("opening capture: %w", err)
	}
	return f, path, nil
}

// resolveCapture turns the export argument into a capture path.
func resolveCapture(ios *IOStreams, arg string) (string, error) {
	if arg != "" {
		if fi, err := os.Stat(arg); err == nil && !fi.IsDir() {
			return arg, nil
		}
		if strings.ContainsRune(arg, os.PathSeparator) || strings.HasSuffix(arg, capture.Ext) {
			return "", usagef("no capture file %s", arg)
		}
	}
	state, err := capture.StateDir(ios.Getenv)
	if err != nil {
		return "", err
	}
	dir := capture.SessionsDir(state)
	files, err := capture.SessionFiles(dir)
	if err != nil {
		return "", err
	}
	if arg == "" {
		if len(files) == 0 {
			return "", fmt.Errorf("no sessions in %s (run 'mcptrail demo' to make one)", dir)
		}
		return files[0], nil
	}
	var matches []string
	for _, f := range files {
		if strings.HasPrefix(sessionIDOf(f), arg) {
			matches = append(matches, f)
		}
	}
	switch len(matches) {
	case 0:
		return "", usagef("no session %q in %s", arg, dir)
	case 1:
		return matches[0], nil
	}
	return "", usagef("session prefix %q is ambiguous: %d sessions match", arg, len(matches))
}

// sessionIDOf returns the id part of a session file name
// (START-LABEL-ID.jsonl).
func sessionIDOf(path string) string {
	name := strings.TrimSuffix(filepath.Base(path), capture.Ext)
	return name[strings.LastIndexByte(name, '-')+1:]
}

// openExportReader opens the capture an export reads, refuses an output
// that is that capture, and returns its reader, the input to close and the
// input's name for messages.
func openExportReader(ios *IOStreams, opts *exportOptions) (*capture.Reader, io.Closer, string, error) {
	in, name, err := openExportInput(ios, opts.input)
	if err != nil {
		return nil, nil, "", err
	}
	if err := checkNotSelf(in, name, opts.output); err != nil {
		in.Close()
		return nil, nil, "", err
	}
	r, err := capture.NewReader(in)
	if err != nil {
		in.Close()
		return nil, nil, "", fmt.Errorf("reading %s: %w", name, err)
	}
	return r, in, name, nil
}

// checkNotSelf refuses an output path that is the input capture itself.
func checkNotSelf(in io.Reader, inName, out string) error {
	if out == "" || out == "-" {
		return nil
	}
	f, ok := in.(*os.File)
	if !ok {
		return nil
	}
	if a, b := absClean(inName), absClean(out); a != "" && a == b {
		return usagef("output %s is the input capture", out)
	}
	inInfo, err1 := f.Stat()
	outInfo, err2 := os.Stat(out)
	if err1 == nil && err2 == nil && os.SameFile(inInfo, outInfo) {
		return usagef("output %s is the input capture", out)
	}
	if err2 != nil && !errors.Is(err2, os.ErrNotExist) {
		return fmt.Errorf("checking output %s: %w", out, err2)
	}
	return nil
}

func absClean(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return ""
	}
	return filepath.Clean(a)
}
