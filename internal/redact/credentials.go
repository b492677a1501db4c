package redact

import (
	"bytes"
	"io"
	"net/url"
	"regexp"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// credentialKeys are the OAuth parameters and JSON members whose values an
// exchange record never holds (capture.Exchange): tokens, authorization
// codes, PKCE verifiers, client secrets, assertions, registration access
// tokens and software statements (OAuthCredentials).
func credentialKeys() map[string]bool {
	keys := map[string]bool{}
	for _, k := range OAuthCredentials() {
		keys[k] = true
	}
	return keys
}

// CredentialBody returns an HTTP exchange body (an OAuth request or
// response the HTTP tap records, capture.Exchange) with the values of its
// OAuth credentials (OAuthCredentials) replaced by Placeholder, whatever
// the redaction rules: in a JSON body the members so named at any depth;
// then, in any body, every "name=value" pair of a credential (a
// form-encoded body, a URL in a JSON string or in an HTML redirect page).
// Every other byte is kept; a valid JSON body stays valid.
func CredentialBody(body string) string { return redactBody(body, credentialKeys()) }

// CredentialURL returns u as an exchange record holds it: the values of
// the OAuth credentials in its query and fragment replaced by Placeholder
// (a PKCE code_challenge too when its method is plain), a password in its
// user info hidden.
func CredentialURL(u *url.URL) string { return redactURL(u, credentialKeys()) }

// redactBody is CredentialBody for the credential names in keys.
func redactBody(body string, keys map[string]bool) string {
	t := strings.TrimSpace(body)
	if t != "" && (t[0] == '{' || t[0] == '[') {
		if out, ok := redactJSON([]byte(body), keys); ok {
			body = out
		}
	}
	return redactPairs(body)
}

// credentialPair matches "key=value" for a credential key at the start of
// the text or after a separator a query, a form or markup puts before it;
// the value runs to the next separator.
var credentialPair = regexp.MustCompile(`((?:^|[?&#;,\s"'/])(?:` + strings.Join(OAuthCredentials(), "|") + `)=)[^&"'<>\s#,;]*`)

// redactPairs replaces the value of every credential pair in s.
func redactPairs(s string) string {
	if !strings.Contains(s, "=") {
		return s
	}
	return credentialPair.ReplaceAllString(s, "${1}"+capture.RedactedValue)
}

// redactJSON replaces, in a JSON text, the value of every member named in
// keys with the placeholder string, keeping every other byte, and reports
// whether body was valid JSON.
func redactJSON(body []byte, keys map[string]bool) (string, bool) {
	dec := jsontext.NewDecoder(bytes.NewReader(body), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	var out []byte
	last := 0 // body is copied to out up to here
	for {
		tok, err := dec.ReadToken()
		if err == io.EOF {
			return string(append(out, body[last:]...)), true
		}
		if err != nil {
			return "", false
		}
		if tok.Kind() != '"' || !isName(dec) || !keys[tok.String()] {
			continue
		}
		v, err := dec.ReadValue()
		if err != nil {
			return "", false
		}
		end := int(dec.InputOffset())
		out = append(out, body[last:end-len(v)]...)
		out = append(out, `"`+capture.RedactedValue+`"`...)
		last = end
	}
}

// isName reports whether the string token the decoder just read is an
// object member's name.
func isName(dec *jsontext.Decoder) bool {
	k, n := dec.StackIndex(dec.StackDepth())
	return k == '{' && n%2 == 1
}

// redactForm replaces the values of credential keys in a form-encoded
// body or query string, keeping every other byte. Text that is not
// form-encoded (spaces, line breaks) is returned unchanged.
func redactForm(s string, keys map[string]bool) string {
	if s == "" || strings.ContainsAny(s, " \t\r\n") || !strings.Contains(s, "=") {
		return s
	}
	pairs := strings.Split(s, "&")
	plain := plainChallenge(pairs)
	changed := false
	for i, p := range pairs {
		k, _, found := strings.Cut(p, "=")
		name, err := url.QueryUnescape(k)
		if err != nil {
			name = k
		}
		if found && (keys[name] || plain && name == "code_challenge") {
			pairs[i] = k + "=" + capture.RedactedValue
			changed = true
		}
	}
	if !changed {
		return s
	}
	return strings.Join(pairs, "&")
}

// plainChallenge reports whether form pairs hold a PKCE code_challenge
// sent with the "plain" method (named, or by default when
// code_challenge_method is absent, RFC 7636 §4.3): that challenge is the
// code verifier itself, so it is a credential too.
func plainChallenge(pairs []string) bool {
	challenge, method := false, "plain"
	for _, p := range pairs {
		k, v, _ := strings.Cut(p, "=")
		switch k {
		case "code_challenge":
			challenge = true
		case "code_challenge_method":
			if m, err := url.QueryUnescape(v); err == nil {
				method = m
			} else {
				method = v
			}
		}
	}
	return challenge && method == "plain"
}

// redactURL returns u as recorded: its query's credentials replaced, a
// password in its user info hidden.
func redactURL(u *url.URL, keys map[string]bool) string {
	c := *u
	c.RawQuery = redactForm(u.RawQuery, keys)
	// A redirect's Location may carry an implicit grant's token in its
	// fragment.
	c.Fragment, c.RawFragment = redactForm(u.Fragment, keys), ""
	return c.Redacted()
}
