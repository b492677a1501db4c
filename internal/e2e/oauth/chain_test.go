package oauth_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/e2e/oauthserver"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// checkChain checks the forward tap's capture holds the whole chain: an
// exchange record for the protected-resource metadata, the AS metadata,
// the registration and the token request (intercepted when tls is set),
// and frames for the MCP calls, whoami's included.
func checkChain(t *testing.T, fw *forwardTap, srv *oauthserver.Server, tls bool) {
	t.Helper()
	_, recs, dmg, err := capture.ReadFile(fw.capture)
	if err != nil {
		t.Fatal(err)
	}
	if dmg.Torn || dmg.Corrupt != 0 {
		t.Errorf("capture damage %+v after a clean exit", dmg)
	}
	want := map[string]string{
		"GET " + srv.ResourceMetadataURL():   "protected-resource metadata",
		"GET " + srv.AuthMetadataURL():       "authorization-server metadata",
		"POST " + srv.Issuer() + "/register": "registration",
		"POST " + srv.Issuer() + "/token":    "token request",
	}
	var calls bool
	for _, r := range recs {
		switch {
		case r.Type == capture.TypeExchange && r.Exchange != nil:
			key := r.Exchange.Method + " " + r.Exchange.URL
			if _, ok := want[key]; !ok {
				continue
			}
			if r.Exchange.Status < 200 || r.Exchange.Status > 299 {
				t.Errorf("%s: status %d", key, r.Exchange.Status)
			}
			if r.Exchange.Intercepted != tls {
				t.Errorf("%s: intercepted %v, want %v", key, r.Exchange.Intercepted, tls)
			}
			delete(want, key)
		case r.Type == capture.TypeFrame:
			calls = calls || bytes.Contains(r.Bytes(), []byte(`"tools/call"`))
		}
	}
	for key, what := range want {
		t.Errorf("no exchange record for the %s (%s)", what, key)
	}
	if !calls {
		t.Error("no tools/call frame in the capture")
	}
	if t.Failed() {
		t.Logf("export -T text:\n%s", fw.run(t, "export", "-T", "text", fw.capture))
	}
}

// checkNoSecrets fails t when any secret, or the server's canary marker,
// appears in the state dir (capture and events), an export of the capture
// in any format, or mcptrail's stderr.
func checkNoSecrets(t *testing.T, fw *forwardTap, secrets []string) {
	t.Helper()
	outputs := map[string]string{"mcptrail's stderr": fw.stderr.String()}
	for _, format := range []string{"json", "text", "html", "har", "events"} {
		what := "export -T " + format
		outputs[what] = fw.run(t, "export", "-T", format, fw.capture)
	}
	if b, err := os.ReadFile(fw.capture); err != nil {
		t.Fatal(err)
	} else if !bytes.Contains(b, []byte(`"exchange"`)) {
		t.Errorf("the capture holds no exchange record")
	}
	for _, s := range append(secrets, oauthserver.Marker) {
		testbin.NoCanaryInDir(t, fw.home, s, true)
		for what, got := range outputs {
			testbin.NoCanary(t, s, what, got)
		}
	}
}
