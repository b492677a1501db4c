package oauth_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/e2e/oauthserver"
)

// TestForwardFaults: the lenient Go client walks each of
// oauthserver.Faults through `mcptrail http --forward`; whatever the
// fault, the capture holds the exchanges the walk made (the protected-
// resource metadata request at least) and none of its secrets. These are
// the captures the oauth rules read; faultCapture makes one.
func TestForwardFaults(t *testing.T) {
	requireForward(t)
	for _, f := range oauthserver.Faults() {
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			srv, fw := faultCapture(t, f)
			_, recs, _, err := capture.ReadFile(fw.capture)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, r := range recs {
				if r.Type == capture.TypeExchange {
					n++
				}
			}
			if n == 0 {
				t.Error("the capture holds no exchange record")
			}
			checkNoSecrets(t, fw, srv.Observed().Secrets())
		})
	}
}

// faultCapture walks f with the Go client through a fresh `mcptrail http
// --forward` and returns the server and the stopped tap, whose capture
// holds the walk.
func faultCapture(t *testing.T, f oauthserver.Fault) (*oauthserver.Server, *forwardTap) {
	t.Helper()
	srv := oauthserver.New(&f.Options)
	t.Cleanup(srv.Close)
	fw := startForward(t, srv, "")
	proxy, err := url.Parse(fw.proxy)
	if err != nil {
		t.Fatal(err)
	}
	c := f.Client
	c.HTTP = &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tr, err := c.Run(ctx, srv.URL())
	switch {
	case f.Completes && err != nil:
		t.Fatalf("walking %s through the proxy: %v", f.Name, err)
	case !f.Completes && err == nil:
		t.Fatalf("walking %s through the proxy completed (%q); want it stopped", f.Name, tr.Tool)
	}
	fw.stop(t)
	return srv, fw
}
