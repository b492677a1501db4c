package check

import (
	"errors"
	"io"
)

// errNotBuilt marks a format whose writer is not written yet.
var errNotBuilt = errors.New("not built yet")

// WriteJUnit writes r as JUnit XML: one testsuite per capture (session),
// one testcase per enabled rule; a rule that raised failing findings is a
// failed testcase whose failure lists their messages.
func WriteJUnit(w io.Writer, r *Report) error { return errNotBuilt }

// WriteSARIF writes r as one SARIF 2.1.0 log: one run, one
// reportingDescriptor per enabled rule (help text, spec reference, default
// level), one result per item located in its capture file by line, with
// partialFingerprints from Item.Fingerprint.
func WriteSARIF(w io.Writer, r *Report) error { return errNotBuilt }

// WriteGitHub writes r as GitHub Actions workflow commands
// (::error file=PATH,line=N,title=RULE::message), one per item.
func WriteGitHub(w io.Writer, r *Report) error { return errNotBuilt }
