package sdkpeer

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The listings the replay tests judge tools by (ApplyListing): what the
// server's tools/list says of its tools. Each tool still answers its
// calls as NewServer's does.
const (
	// ListingDestructive annotates every tool destructiveHint: true.
	ListingDestructive = "destructive"
	// ListingReadOnly annotates every tool readOnlyHint: true.
	ListingReadOnly = "read-only"
	// ListingHidden lists no tool at all.
	ListingHidden = "hidden"
)

// ApplyListing makes srv's tools/list answers say what listing names; ""
// leaves them as they are (tools without annotations).
func ApplyListing(srv *mcp.Server, listing string) error {
	var ann *mcp.ToolAnnotations
	switch listing {
	case "":
		return nil
	case ListingDestructive:
		yes := true
		ann = &mcp.ToolAnnotations{DestructiveHint: &yes}
	case ListingReadOnly:
		ann = &mcp.ToolAnnotations{ReadOnlyHint: true}
	case ListingHidden:
	default:
		return fmt.Errorf("unknown listing %q (want %s, %s or %s)", listing, ListingDestructive, ListingReadOnly, ListingHidden)
	}
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			list, ok := res.(*mcp.ListToolsResult)
			if err != nil || !ok {
				return res, err
			}
			out := *list
			out.Tools = []*mcp.Tool{}
			for _, t := range list.Tools {
				if listing == ListingHidden {
					continue
				}
				c := *t // the server's own Tool is shared: change a copy
				c.Annotations = ann
				out.Tools = append(out.Tools, &c)
			}
			return &out, nil
		}
	})
	return nil
}
