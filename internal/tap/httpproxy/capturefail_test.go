package httpproxy

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"syscall"
	"testing"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// TestCaptureFailureLeavesGapNote fills the capture's disk mid-session:
// the traffic is still forwarded byte for byte, the tap says so once, at
// the failure, and the capture ends with a capture-gap note that accounts
// for every frame it lacks, with their bytes.
func TestCaptureFailureLeavesGapNote(t *testing.T) {
	t.Parallel()
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","id":1,"result":{"echo":%q}}`, b)
	}))
	defer target.Close()
	u, _ := url.Parse(target.URL)
	disk := &testbin.FullDisk{Limit: 20_000}
	failed := make(chan error, 2)
	p, err := New(&Options{Target: u, Capture: disk, OnCaptureError: func(err error) { failed <- err }})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	const calls = 300
	var sent int64
	for i := range calls {
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"n%d"}}`, i, i)
		resp, err := http.Post(front.URL, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"result":{"echo":%q}}`, body); string(got) != want {
			t.Fatalf("call %d: the client got %q, want %q", i, got, want)
		}
		sent += int64(len(body) + len(got))
	}
	front.Close()
	disk.Free()
	err = p.Close()
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "recorded in a capture-gap note") {
		t.Errorf("Close = %v, want ENOSPC recorded in a capture-gap note", err)
	}
	select {
	case err := <-failed:
		if !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("OnCaptureError got %v, want ENOSPC", err)
		}
	default:
		t.Error("OnCaptureError was not called")
	}
	if len(failed) != 0 {
		t.Error("OnCaptureError was called more than once")
	}
	testbin.CheckCaptureGapBytes(t, disk.Bytes(), 2*calls, sent)
}
