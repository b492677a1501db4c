package sdk_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type exportCatalog struct {
	Lists []struct {
		Method      string `json:"method"`
		Kind        string `json:"kind"`
		Seq         uint64 `json:"seq"`
		Pages       int    `json:"pages"`
		Complete    bool   `json:"complete"`
		Definitions []struct {
			Key         string `json:"key"`
			Description string `json:"description"`
			Hash        string `json:"hash"`
			Seq         uint64 `json:"seq"`
		} `json:"definitions"`
	} `json:"lists"`
	Changes []struct {
		Seq      uint64 `json:"seq"`
		Kind     string `json:"kind"`
		Key      string `json:"key"`
		Change   string `json:"change"`
		Notified uint64 `json:"notified_seq"`
	} `json:"changes"`
}

// TestCatalog runs a go-sdk client and server through mcptrail: the client
// lists the tools (the server pages them two at a time), calls grow, which
// changes one tool, adds one and removes one, and lists again. The catalog
// must hold the second listing and its three changes.
//
// At 2025-11-25 the client waits for the server's
// notifications/tools/list_changed before listing again, and each change
// must be tied to it. At 2026-07-28 the requests carry _meta and the
// client opens no subscriptions/listen stream (the SDK's teardown of one
// races the teed pipes' close), so the server announces nothing and the
// changes are tied to no notification.
func TestCatalog(t *testing.T) {
	t.Parallel()
	for _, legacy := range []bool{false, true} {
		t.Run(map[bool]string{false: "modern", true: "legacy"}[legacy], func(t *testing.T) {
			t.Parallel()
			runLaunches(t, func(t *testing.T, l launch) { testCatalog(t, l, legacy) })
		})
	}
}

func testCatalog(t *testing.T, l launch, legacy bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	changed := make(chan struct{}, 1)
	var opts mcp.ClientOptions
	version, args := "2026-07-28", []string{"-catalog"}
	if legacy {
		version, args = "2025-11-25", []string{"-catalog", "-legacy"}
		opts.ToolListChangedHandler = func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default:
			}
		}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: clientName, Version: clientVersion}, &opts)
	p := connectProxied(ctx, t, client, l, version, args...)
	first := listTools(ctx, t, p)
	if text, isErr := p.callTool(ctx, t, "grow"); text != "grown" || isErr {
		t.Fatalf("grow = %q (isError %v)", text, isErr)
	}
	if legacy {
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatal("no notifications/tools/list_changed reached the client")
		}
	}
	second := listTools(ctx, t, p)
	p.close(t)
	if diff := cmp.Diff([]string{"alpha", "beta", "gamma", "grow"}, first); diff != "" {
		t.Errorf("first listing (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"alpha", "beta", "delta", "grow"}, second); diff != "" {
		t.Errorf("second listing (-want +got):\n%s", diff)
	}
	x := runExport(t, p.capture)
	checkCatalog(t, x, legacy)
	x.checkCounts(t)
	x.checkFindings(t)
}

// checkCatalog checks the export's catalog after the two listings.
func checkCatalog(t *testing.T, x *export, legacy bool) {
	t.Helper()
	if x.Catalog == nil || len(x.Catalog.Lists) != 1 {
		t.Fatalf("catalog = %+v, want one list", x.Catalog)
	}
	list := x.Catalog.Lists[0]
	era := map[bool]string{false: "modern", true: "legacy"}[legacy]
	for _, c := range x.Calls {
		if c.Method == "tools/list" && c.Era != era {
			t.Errorf("tools/list call %d: era %q, want %s", c.Index, c.Era, era)
		}
	}
	var pages int
	var notified uint64
	for _, f := range x.Frames {
		if f.Method == "tools/list" {
			pages++
		}
		if f.Method == "notifications/tools/list_changed" {
			notified = f.Seq
		}
	}
	if list.Method != "tools/list" || list.Kind != "tool" || !list.Complete || list.Pages != pages || pages != 4 {
		t.Errorf("list %s %s complete %v, %d pages; want tools/list of tools, complete, 4 pages (%d tools/list requests)", list.Method, list.Kind, list.Complete, list.Pages, pages)
	}
	if legacy == (notified == 0) {
		t.Errorf("list_changed notification at seq %d in a session that is legacy=%v", notified, legacy)
	}
	var defs []string
	for _, d := range list.Definitions {
		defs = append(defs, d.Key+": "+d.Description)
	}
	want := []string{"alpha: the first tool", "beta: the second tool, changed", "delta: a new tool", "grow: changes the tool list"}
	if diff := cmp.Diff(want, defs); diff != "" {
		t.Errorf("definitions (-want +got):\n%s", diff)
	}
	var changes []string
	for _, c := range x.Catalog.Changes {
		changes = append(changes, fmt.Sprintf("%s %s %s", c.Kind, c.Key, c.Change))
		if c.Notified != notified || c.Seq <= notified || x.frameAt(t, c.Seq).Dir != "s2c" {
			t.Errorf("change of %s at seq %d, notified_seq %d: want a server frame, tied to the list_changed at %d (0: none) and after it", c.Key, c.Seq, c.Notified, notified)
		}
	}
	wantChanges := []string{"tool beta changed", "tool delta added", "tool gamma removed"}
	if diff := cmp.Diff(wantChanges, changes); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
}

// listTools lists every tool, page by page, and returns their names.
func listTools(ctx context.Context, t *testing.T, p *proxied) []string {
	t.Helper()
	var names []string
	params := &mcp.ListToolsParams{}
	for {
		res, err := p.cs.ListTools(ctx, params)
		if err != nil {
			t.Fatalf("tools/list through mcptrail: %v", err)
		}
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
		}
		if res.NextCursor == "" {
			return names
		}
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
}
