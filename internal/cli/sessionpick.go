package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// openSession returns a reader for the session ci wants. A file is
// indexed, so its last session (or the one named) is read directly; a
// pipe is read in order, so its first session (or the one named) is
// taken.
func openSession(ios *IOStreams, ci *captureInput) (*capture.Reader, error) {
	if f := ci.file; f != nil {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			return openFileSession(ios, f, ci)
		}
	}
	r, err := capture.NewReader(ci.in)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", ci.name, err)
	}
	for ci.want != "" && !strings.HasPrefix(r.Header().SessionID, ci.want) {
		if err := r.NextSession(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil, notFoundf("no session %q in %s", ci.want, ci.name)
			}
			return nil, fmt.Errorf("reading %s: %w", ci.name, err)
		}
	}
	return r, nil
}

// openFileSession indexes the capture file f and opens the session ci
// wants; reading the last of several says so on stderr.
func openFileSession(ios *IOStreams, f *os.File, ci *captureInput) (*capture.Reader, error) {
	// Standard input may be a file read from where a parent left it.
	base, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", ci.name, err)
	}
	idx, err := capture.Index(f)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", ci.name, err)
	}
	for i := range idx {
		idx[i].Offset += base
	}
	s, err := pickSession(idx, ci)
	if err != nil {
		return nil, err
	}
	if ci.want == "" && len(idx) > 1 {
		fmt.Fprintf(ios.ErrOut, "mcptrail: %s holds %d sessions; reading the last, %q (pick another with --session ID: %s)\n",
			termtext.Escape(ci.name), len(idx), s.Header.SessionID, sessionIDList(idx))
	}
	r, err := capture.OpenSession(f, s)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", ci.name, err)
	}
	return r, nil
}

// pickSession returns the session ci wants among idx
// (capture.PickSession): the last, or the one whose id starts with
// ci.want; a prefix that names none is not found, one that names several
// a usage error.
func pickSession(idx []capture.Session, ci *captureInput) (*capture.Session, error) {
	s, err := capture.PickSession(idx, ci.want)
	var pe *capture.PrefixError
	switch {
	case errors.As(err, &pe) && len(pe.Matches) == 0:
		return nil, notFoundf("no session %q in %s (it holds %s)", ci.want, ci.name, sessionIDList(idx))
	case errors.As(err, &pe):
		return nil, ambiguousPrefix(ci.want, ci.name, pe.Matches)
	}
	return s, err
}

// sessionIDList lists the ids of idx for a message, oldest first.
func sessionIDList(idx []capture.Session) string {
	ids := make([]string, len(idx))
	for i := range idx {
		ids[i] = idx[i].Header.SessionID
	}
	return idList(ids)
}

// idList lists session ids for a message: quoted, at most ten, in the
// order given.
func idList(ids []string) string {
	const most = 10
	var out []string
	for i, id := range ids {
		if i == most {
			out = append(out, fmt.Sprintf("and %d more", len(ids)-most))
			break
		}
		out = append(out, fmt.Sprintf("%q", id))
	}
	return strings.Join(out, ", ")
}
