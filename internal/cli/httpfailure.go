package cli

import (
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/tap/httpproxy"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// failureNotices tells the user of a running `mcptrail http`, on stderr,
// the first time each kind of HTTP failure happens (one line per status,
// the 502 of a target that is down apart from a 502 the target sent),
// never once per request: the capture has every one. The statuses are
// those of mcp.FailureStatus, which the http-error-status rule flags.
// report is safe for concurrent use.
type failureNotices struct {
	w    io.Writer
	mu   sync.Mutex
	seen map[failureKind]bool
}

// failureKind is what makes two failures the same kind.
type failureKind struct {
	status  int
	down    bool
	refused bool
}

// report is httpproxy.Options.OnFailure.
func (n *failureNotices) report(f httpproxy.Failure) {
	if f.Refused == "" && !mcp.FailureStatus(f.Method, f.Status) {
		return
	}
	k := failureKind{f.Status, f.TargetDown, f.Refused != ""}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.seen[k] {
		return
	}
	if n.seen == nil {
		n.seen = make(map[failureKind]bool)
	}
	n.seen[k] = true
	to := f.RPCMethod
	if to == "" {
		to = f.Method + " " + f.Path
	}
	status := fmt.Sprintf("%d %s", f.Status, http.StatusText(f.Status))
	if f.Refused != "" {
		fmt.Fprintf(n.w, "mcptrail: refused %s with %s, before the target: %s (first time; see the capture)\n",
			termtext.Escape(to), status, termtext.Escape(f.Refused))
		return
	}
	if f.TargetDown {
		fmt.Fprintf(n.w, "mcptrail: target unreachable: answered %s to %s: %s (first time; see the capture)\n",
			status, termtext.Escape(to), termtext.Escape(f.Err))
		return
	}
	fmt.Fprintf(n.w, "mcptrail: target answered %s to %s (first time; see the capture)\n", status, termtext.Escape(to))
}
