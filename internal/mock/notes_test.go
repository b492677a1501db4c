package mock

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNotifications: the server notifications recorded while a call was in
// flight are sent before its answer; a progress notification carries the
// live request's token, and is left out when the live request has none.
func TestNotifications(t *testing.T) {
	t.Parallel()
	text := frames(
		`c2s {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"rec"}}}`,
		`s2c {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"rec","progress":1}}`,
		`s2c {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}`,
		`s2c {"jsonrpc":"2.0","id":1,"result":{"content":[]}}`,
		`s2c {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`,
		`c2s {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"rec2"}}}`,
		`s2c {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"rec2","progress":1}}`,
		`s2c {"jsonrpc":"2.0","id":2,"result":{"content":[]}}`,
	)
	m := New(loadScript(t, text), nil)
	got := serve(m, `{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"slow","_meta":{"progressToken":7}}}`)
	want := []sent{
		{`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":1}}`, false},
		{`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}`, false},
		{`{"jsonrpc":"2.0","id":"a","result":{"content":[]}}`, true},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(sent{})); diff != "" {
		t.Errorf("with a progress token (-want +got):\n%s", diff)
	}
	got = serve(m, `{"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"slow"}}`)
	want = []sent{{`{"jsonrpc":"2.0","id":"b","result":{"content":[]}}`, true}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(sent{})); diff != "" {
		t.Errorf("without a progress token (-want +got):\n%s", diff)
	}
}
