package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"io"
	"os"
	"regexp"

	"github.com/rogpeppe/go-internal/testscript"
)

// framesBlock is the HTML report's frames data block: gzip in base64.
var framesBlock = regexp.MustCompile(`(?s)<script type="application/octet-stream" id="frames-data" data-encoding="gzip base64">(.*?)</script>`)

// cmdHTMLFrames is the script command `htmlframes REPORT OUT`: it writes
// the frames data block of the HTML report REPORT, inflated as the page
// does, to OUT, so a script can grep what a call's details will show.
func cmdHTMLFrames(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: htmlframes REPORT OUT")
	}
	m := framesBlock.FindStringSubmatch(ts.ReadFile(args[0]))
	if m == nil {
		ts.Fatalf("%s has no gzip frames-data block", args[0])
	}
	z, err := base64.StdEncoding.DecodeString(m[1])
	ts.Check(err)
	zr, err := gzip.NewReader(bytes.NewReader(z))
	ts.Check(err)
	out, err := io.ReadAll(zr)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), out, 0o644))
}
