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

// captureInput is an opened capture argument: the input, its name for
// messages, and the session wanted in it ("" the last one of a file, the
// first of a pipe; else a session id or unique prefix).
type captureInput struct {
	in   io.ReadCloser
	file *os.File // in as a file, or standard input when it is one; else nil
	name string
	want string
}

// openExportInput opens what the export argument names: "" the newest
// session, "-" standard input, an existing file, else a session id or
// unique id prefix in the state directory. session (--session) picks a
// session inside the file.
func openExportInput(fac *Factory, arg, session string) (*captureInput, error) {
	ios := fac.IOStreams
	if arg == "-" {
		ci := &captureInput{in: io.NopCloser(ios.In), name: "standard input", want: session}
		ci.file, _ = ios.In.(*os.File)
		return ci, nil
	}
	path, want, err := resolveCapture(fac, arg)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, openCaptureError(path, err)
	}
	if session != "" {
		want = session
	}
	return &captureInput{in: f, file: f, name: path, want: want}, nil
}

// resolveCapture turns the export argument into a capture path and the
// session wanted in it.
func resolveCapture(fac *Factory, arg string) (string, string, error) {
	if arg != "" {
		fi, err := os.Stat(arg)
		if err == nil && !fi.IsDir() {
			return arg, "", nil
		}
		if strings.ContainsRune(arg, os.PathSeparator) || strings.HasSuffix(arg, capture.Ext) {
			if err == nil {
				return "", "", usagef("%s is a directory, not a capture file", arg)
			}
			return "", "", openCaptureError(arg, err)
		}
	}
	state, err := fac.StateDir()
	if err != nil {
		return "", "", err
	}
	dir := capture.SessionsDir(state)
	files, err := capture.SessionFiles(dir)
	if err != nil {
		return "", "", err
	}
	if arg == "" {
		if len(files) == 0 {
			return "", "", notFoundf("no sessions in %s (run 'mcptrail demo' to make one)", dir)
		}
		return files[0], "", nil
	}
	var matches []string
	for _, f := range files {
		if strings.HasPrefix(capture.SessionFileID(f), arg) {
			matches = append(matches, f)
		}
	}
	switch len(matches) {
	case 0:
		// Not a file's name: a session appended inside a file, perhaps.
		return findAppended(fac, files, arg, dir)
	case 1:
		return matches[0], arg, nil
	}
	ids := make([]string, len(matches))
	for i, m := range matches {
		ids[i] = capture.SessionFileID(m)
	}
	return "", "", ambiguousPrefix(arg, dir, ids)
}

// findAppended looks for a session id prefix among the sessions inside
// the files (sessions added with --append).
func findAppended(fac *Factory, files []string, arg, dir string) (string, string, error) {
	ios := fac.IOStreams
	var path, id string
	var ids []string
	for _, f := range files {
		idx, err := indexFile(f)
		if err != nil {
			printError(ios.ErrOut, fmt.Errorf("skipping %s: %w", f, err))
			continue
		}
		for i := range idx {
			if strings.HasPrefix(idx[i].Header.SessionID, arg) {
				path, id = f, idx[i].Header.SessionID
				ids = append(ids, id)
			}
		}
	}
	switch len(ids) {
	case 0:
		if fi, err := os.Stat(arg); err == nil && fi.IsDir() {
			return "", "", usagef("%s is a directory, not a capture file (and no session id in %s starts with it)", arg, dir)
		}
		return "", "", notFoundf("no session %q in %s", arg, dir)
	case 1:
		return path, id, nil
	}
	return "", "", ambiguousPrefix(arg, dir, ids)
}

// indexFile lists the sessions in the capture file at path.
func indexFile(path string) ([]capture.Session, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening capture: %w", reason(err))
	}
	defer f.Close()
	return capture.Index(f)
}

// ambiguousPrefix is the usage error for a session id prefix that
// matches the sessions ids in dir.
func ambiguousPrefix(prefix, dir string, ids []string) error {
	return usagef("session prefix %q is ambiguous in %s: %d sessions match (%s); give more of the id", prefix, dir, len(ids), idList(ids))
}

// openExportReader opens the capture an export reads, refuses an output
// that is a capture (the input or any other), and returns the reader of
// the session it picks, the input to close and the input's name for
// messages.
func openExportReader(opts *exportOptions) (*capture.Reader, io.Closer, string, error) {
	ios := opts.IOStreams
	ci, err := openExportInput(opts.Factory, opts.input, opts.session)
	if err != nil {
		return nil, nil, "", err
	}
	if err := checkOutput(ci, opts.output); err != nil {
		ci.in.Close()
		return nil, nil, "", err
	}
	r, err := openSession(ios, ci)
	if err != nil {
		ci.in.Close()
		return nil, nil, "", err
	}
	return r, ci.in, ci.name, nil
}

// checkOutput refuses an output path that is the input capture itself or
// any other existing capture file: an export never replaces a capture.
func checkOutput(ci *captureInput, out string) error {
	if out == "" || out == "-" {
		return nil
	}
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		return usagef("output %s is a directory; -o takes a file name", out)
	}
	if f := ci.file; f != nil {
		if a, b := absClean(ci.name), absClean(out); a != "" && a == b {
			return usagef("output %s is the input capture", out)
		}
		inInfo, err1 := f.Stat()
		outInfo, err2 := os.Stat(out)
		if err1 == nil && err2 == nil && os.SameFile(inInfo, outInfo) {
			return usagef("output %s is the input capture", out)
		}
		if err2 != nil && !errors.Is(err2, os.ErrNotExist) {
			return fmt.Errorf("checking output %s: %w", out, reason(err2))
		}
	}
	isCapture, err := capture.IsCapture(out)
	if err != nil {
		return fmt.Errorf("checking output %s: %w", out, reason(err))
	}
	if isCapture {
		return usagef("output %s is an mcptrail capture; export never replaces one (remove it first, or pick another name)", out)
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
