package harexport

import (
	"cmp"
	"net/http"
	"slices"

	"github.com/mcptrail/mcptrail/internal/store"
)

// exchangeInfo is the _mcptrail field of an entry made from an exchange
// record (an HTTP exchange that carried no MCP message).
type exchangeInfo struct {
	Exchange    string `json:"exchange"`
	Seq         uint64 `json:"seq"`
	Intercepted bool   `json:"intercepted,omitzero"`
	Refused     string `json:"refused,omitempty"`
	Error       string `json:"error,omitempty"`
}

// timed is an entry with the seq of its first record, which orders it
// among the others as the capture does.
type timed struct {
	seq uint64
	e   entry
}

// inOrder returns the entries ordered by first seq.
func inOrder(ts []timed) []entry {
	slices.SortStableFunc(ts, func(a, b timed) int { return cmp.Compare(a.seq, b.seq) })
	out := make([]entry, len(ts))
	for i := range ts {
		out[i] = ts[i].e
	}
	return out
}

// exchangeEntries returns an entry for each exchange record of snap (OAuth
// discovery, registration, token requests: bodies as recorded, credentials
// already redacted); CONNECT tunnels relayed blind have no HTTP to show.
func exchangeEntries(snap *store.Snapshot) []timed {
	var out []timed
	for _, x := range snap.Exchanges {
		if x.Tunnel {
			continue
		}
		out = append(out, timed{seq: x.Seq, e: exchangeEntry(&x)})
	}
	return out
}

func exchangeEntry(x *store.Exchange) entry {
	took := float64(x.DurationUS) / 1000
	e := entry{
		StartedDateTime: harTime(x.Time),
		Time:            took,
		Request: request{
			Method: x.Method, URL: x.URL, HTTPVersion: "HTTP/1.1",
			Cookies: []struct{}{}, Headers: headers(x.ReqHeaders), QueryString: []nameValue{},
			HeadersSize: -1, BodySize: int(x.ReqSize),
		},
		Response: response{
			Status: x.Status, StatusText: http.StatusText(x.Status), HTTPVersion: "HTTP/1.1",
			Cookies: []struct{}{}, Headers: headers(x.RespHeaders), RedirectURL: x.RespHeaders["Location"],
			Content:     content{Size: int(x.RespSize), MimeType: mimeOf(x.RespHeaders, ""), Text: x.RespBody},
			HeadersSize: -1, BodySize: int(x.RespSize),
		},
		Timings:  timings{Send: 0, Wait: took, Receive: 0},
		Mcptrail: exchangeInfo{Exchange: x.ID, Seq: x.Seq, Intercepted: x.Intercepted, Refused: x.Refused, Error: x.Error},
	}
	if x.ReqBody != "" {
		e.Request.PostData = &postData{MimeType: mimeOf(x.ReqHeaders, ""), Text: x.ReqBody}
	}
	return e
}
