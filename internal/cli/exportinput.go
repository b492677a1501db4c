package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/session"
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
// session wanted in it (session.CapturePath, then session.Resolve in the
// state directory's sessions).
func resolveCapture(fac *Factory, arg string) (string, string, error) {
	if path, err := session.CapturePath(arg); path != "" || err != nil {
		return path, "", resolveError(err)
	}
	state, err := fac.StateDir()
	if err != nil {
		return "", "", err
	}
	skip := func(path string, err error) {
		printError(fac.IOStreams.ErrOut, fmt.Errorf("skipping %s: %w", path, err))
	}
	path, want, err := session.Resolve(capture.SessionsDir(state), arg, skip)
	return path, want, resolveError(err)
}

// resolveError turns a *session.ResolveError into the usage or not-found
// error the user reads; any other error is returned as is.
func resolveError(err error) error {
	var re *session.ResolveError
	if !errors.As(err, &re) {
		return err
	}
	switch re.Kind {
	case session.IsDirectory, session.DirNoMatch:
		return usagef("%s", re.Error())
	case session.CannotOpen:
		return openCaptureError(re.Arg, re.Err)
	case session.NoSessions:
		return notFoundf("no sessions in %s (run 'mcptrail demo' to make one)", re.Dir)
	case session.Ambiguous:
		return ambiguousPrefix(re.Arg, re.Dir, re.Matches)
	}
	return notFoundf("%s", re.Error())
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
