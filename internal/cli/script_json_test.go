package cli

import (
	"encoding/json"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdIsJSON is the script command `isjson FILE`: FILE (or stdout, or
// stderr) holds one JSON value and nothing else; `! isjson` the opposite.
func cmdIsJSON(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: isjson FILE")
	}
	data := ts.ReadFile(args[0])
	ok := data != "" && json.Valid([]byte(data))
	switch {
	case ok && neg:
		ts.Fatalf("%s is JSON", args[0])
	case !ok && !neg:
		ts.Fatalf("%s is not one JSON value:\n%s", args[0], data)
	}
}
