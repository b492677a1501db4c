package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// Exchange and tunnel records reach the snapshot in capture order, through
// the real Writer and Reader, with their seq and line.
func TestExchangesKept(t *testing.T) {
	t.Parallel()
	meta := &capture.Exchange{ID: "x1", Method: "GET", URL: "http://as.test/.well-known/oauth-authorization-server",
		Status: 200, RespBody: `{"issuer":"http://as.test"}`, DurationUS: 1500}
	tun := &capture.Exchange{ID: "x2", Method: "CONNECT", URL: "rs.test:443", BytesUp: 10, BytesDown: 20}
	snap := load(t, []step{
		{rec: &capture.Record{Type: capture.TypeExchange, Exchange: meta}},
		c2s(1, `{"jsonrpc":"2.0","id":1,"method":"ping"}`),
		{rec: &capture.Record{Type: capture.TypeTunnel, Exchange: tun}},
		endRec(),
	})
	got := snap.Exchanges
	if len(got) != 2 {
		t.Fatalf("got %d exchanges, want 2", len(got))
	}
	if diff := cmp.Diff(meta, got[0].Exchange); diff != "" {
		t.Errorf("exchange (-want +got):\n%s", diff)
	}
	if got[0].Tunnel || !got[1].Tunnel {
		t.Errorf("tunnel flags %v %v, want false true", got[0].Tunnel, got[1].Tunnel)
	}
	if got[1].Seq <= got[0].Seq || got[0].Line != 2 || got[1].Line != 4 {
		t.Errorf("seqs %d %d lines %d %d, want ascending seqs on lines 2 and 4", got[0].Seq, got[1].Seq, got[0].Line, got[1].Line)
	}
}
