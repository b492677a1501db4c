package harexport

import "github.com/go-json-experiment/json/jsontext"

// The HAR 1.2 objects this package writes (a subset of the fields the
// format defines; Mcptrail is a custom field, which HAR allows when its
// name starts with an underscore).
type (
	archive struct {
		Log harLog `json:"log"`
	}
	harLog struct {
		Version string     `json:"version"`
		Creator creator    `json:"creator"`
		Pages   []struct{} `json:"pages"`
		Entries []entry    `json:"entries"`
		Comment string     `json:"comment,omitempty"`
	}
	creator struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	entry struct {
		StartedDateTime string   `json:"startedDateTime"`
		Time            float64  `json:"time"`
		Request         request  `json:"request"`
		Response        response `json:"response"`
		Cache           struct{} `json:"cache"`
		Timings         timings  `json:"timings"`
		Mcptrail        any      `json:"_mcptrail,omitempty"`
	}
	request struct {
		Method      string      `json:"method"`
		URL         string      `json:"url"`
		HTTPVersion string      `json:"httpVersion"`
		Cookies     []struct{}  `json:"cookies"`
		Headers     []nameValue `json:"headers"`
		QueryString []nameValue `json:"queryString"`
		PostData    *postData   `json:"postData,omitempty"`
		HeadersSize int         `json:"headersSize"`
		BodySize    int         `json:"bodySize"`
	}
	response struct {
		Status      int         `json:"status"`
		StatusText  string      `json:"statusText"`
		HTTPVersion string      `json:"httpVersion"`
		Cookies     []struct{}  `json:"cookies"`
		Headers     []nameValue `json:"headers"`
		Content     content     `json:"content"`
		RedirectURL string      `json:"redirectURL"`
		HeadersSize int         `json:"headersSize"`
		BodySize    int         `json:"bodySize"`
	}
	nameValue struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	}
	postData struct {
		MimeType string `json:"mimeType"`
		Text     string `json:"text"`
	}
	content struct {
		Size     int    `json:"size"`
		MimeType string `json:"mimeType"`
		Text     string `json:"text,omitempty"`
		Encoding string `json:"encoding,omitempty"`
	}
	timings struct {
		Send    float64 `json:"send"`
		Wait    float64 `json:"wait"`
		Receive float64 `json:"receive"`
	}
	// stdioInfo is the _mcptrail field of a stdio entry.
	stdioInfo struct {
		Call        int            `json:"call"`
		Dir         string         `json:"dir"`
		ID          jsontext.Value `json:"id,omitempty"`
		Method      string         `json:"method"`
		Target      string         `json:"target,omitempty"`
		Status      string         `json:"status"`
		Era         string         `json:"era,omitempty"`
		Operation   *int           `json:"operation,omitempty"`
		Round       int            `json:"round,omitzero"`
		Parent      *int           `json:"parent,omitempty"`
		Error       *rpcError      `json:"error,omitempty"`
		RequestSeq  uint64         `json:"request_seq,omitzero"`
		ResponseSeq uint64         `json:"response_seq,omitzero"`
	}
	rpcError struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	// httpInfo is the _mcptrail field of an HTTP entry.
	httpInfo struct {
		Exchange string   `json:"exchange"`
		Conn     string   `json:"conn,omitempty"`
		Seqs     []uint64 `json:"seqs"`
	}
)
