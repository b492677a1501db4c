package oauth

import (
	"net/url"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// object is a JSON object body, member by member; only named, non-secret
// members are ever read out of it.
type object map[string]jsontext.Value

// jsonObject decodes a JSON object body; nil when it is not one.
func jsonObject(body string) object {
	if body == "" {
		return nil
	}
	var o object
	if json.Unmarshal([]byte(body), &o, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) != nil {
		return nil
	}
	return o
}

// str returns a string member, "" when absent or not a string.
func (o object) str(name string) string {
	var s string
	if v, ok := o[name]; ok && v.Kind() == '"' && json.Unmarshal(v, &s, jsontext.AllowInvalidUTF8(true)) == nil {
		return s
	}
	return ""
}

// strs returns an array of strings member (a lone string as one), the
// elements that are not strings left out.
func (o object) strs(name string) []string {
	v, ok := o[name]
	if !ok {
		return nil
	}
	if v.Kind() == '"' {
		if s := o.str(name); s != "" {
			return []string{s}
		}
		return nil
	}
	var raw []jsontext.Value
	if v.Kind() != '[' || json.Unmarshal(v, &raw) != nil {
		return nil
	}
	var out []string
	for _, e := range raw {
		var s string
		if e.Kind() == '"' && json.Unmarshal(e, &s, jsontext.AllowInvalidUTF8(true)) == nil {
			out = append(out, s)
		}
	}
	return out
}

// num returns an integer member (a number, or a string of digits as some
// servers send expires_in); zero when absent or neither.
func (o object) num(name string) int64 {
	v, ok := o[name]
	if !ok {
		return 0
	}
	var n float64
	switch v.Kind() {
	case '0':
		if json.Unmarshal(v, &n) != nil {
			return 0
		}
	case '"':
		var s string
		if json.Unmarshal(v, &s) != nil || json.Unmarshal([]byte(s), &n) != nil {
			return 0
		}
	}
	if n < -1<<53 || n > 1<<53 {
		return 0
	}
	return int64(n)
}

// boolean returns a boolean member; false when absent or not a boolean.
func (o object) boolean(name string) bool {
	v, ok := o[name]
	return ok && v.Kind() == 't'
}

// has reports whether the member is present.
func (o object) has(name string) bool {
	_, ok := o[name]
	return ok
}

// form decodes a form-encoded body (a request's, whatever its declared
// type: token requests are always forms); nil when it holds no pair.
func form(body string) url.Values {
	if body == "" || strings.HasPrefix(strings.TrimSpace(body), "{") {
		return nil
	}
	v, err := url.ParseQuery(body)
	if err != nil && len(v) == 0 {
		return nil
	}
	return v
}

// query returns a URL's query parameters; nil when it has none.
func query(raw string) url.Values {
	_, q, ok := strings.Cut(stripFragment(raw), "?")
	if !ok {
		return nil
	}
	v, _ := url.ParseQuery(q)
	return v
}

func stripFragment(raw string) string {
	raw, _, _ = strings.Cut(raw, "#")
	return raw
}
