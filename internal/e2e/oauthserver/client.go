package oauthserver

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Client walks the OAuth flow the way a lenient client does: it follows
// what the servers say without judging it (a mismatched resource or
// issuer, plain PKCE, metadata at the appended well-known path), so a
// misbehaving Server yields a whole chain to capture, and its own knobs
// produce the client-side faults (no resource parameter, token in the
// URL). It is not a model client; the Node clients are.
type Client struct {
	// HTTP sends every request (a proxy goes in its Transport); nil
	// means a client with http.DefaultTransport. Redirects are never
	// followed.
	HTTP *http.Client
	// OmitResource leaves the RFC 8707 resource parameter out of the
	// authorization and token requests.
	OmitResource bool
	// TokenInQuery sends the access token as an access_token query
	// parameter instead of in the Authorization header.
	TokenInQuery bool
}

// Trace is what a Client's walk saw.
type Trace struct {
	Challenge string // WWW-Authenticate of the first 401
	ClientID  string
	Iss       string // iss of the authorization response
	Tool      string // whoami's text, "" when the walk stopped before
}

// Run walks the flow against the MCP endpoint mcpURL and calls whoami.
// The error says where the walk stopped; the trace holds what it saw.
func (c *Client) Run(ctx context.Context, mcpURL string) (*Trace, error) {
	hc := c.httpClient()
	tr := &Trace{}
	var err error
	if tr.Challenge, err = challenge(ctx, hc, mcpURL); err != nil {
		return tr, err
	}
	var prm struct {
		AuthorizationServers []string `json:"authorization_servers"`
	}
	if err := getFirstJSON(ctx, hc, &prm, resourceMetadataURLs(mcpURL, tr.Challenge)...); err != nil {
		return tr, fmt.Errorf("fetching protected-resource metadata: %w", err)
	}
	if len(prm.AuthorizationServers) == 0 {
		return tr, errors.New("protected-resource metadata names no authorization server")
	}
	var asm authMetadata
	if err := getFirstJSON(ctx, hc, &asm, authMetadataURLs(prm.AuthorizationServers[0])...); err != nil {
		return tr, fmt.Errorf("fetching authorization-server metadata: %w", err)
	}
	tok, err := c.authorize(ctx, hc, mcpURL, &asm, tr)
	if err != nil {
		return tr, err
	}
	tr.Tool, err = c.callWhoami(ctx, hc, mcpURL, tok)
	return tr, err
}

func (c *Client) httpClient() *http.Client {
	hc := http.Client{}
	if c.HTTP != nil {
		hc = *c.HTTP
	}
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &hc
}

// authMetadata is the part of RFC 8414 metadata the walk uses.
type authMetadata struct {
	AuthorizationEndpoint string   `json:"authorization_endpoint"`
	TokenEndpoint         string   `json:"token_endpoint"`
	RegistrationEndpoint  string   `json:"registration_endpoint"`
	PKCEMethods           []string `json:"code_challenge_methods_supported"`
}

// challenge sends an unauthenticated initialize and returns the 401's
// WWW-Authenticate.
func challenge(ctx context.Context, hc *http.Client, mcpURL string) (string, error) {
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"oauthserver-walk","version":"1"}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, mcpURL, strings.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := hc.Do(req)
	if err != nil {
		return "", fmt.Errorf("calling %s unauthenticated: %w", mcpURL, err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		return "", fmt.Errorf("unauthenticated initialize answered %s, not 401", resp.Status)
	}
	return resp.Header.Get("WWW-Authenticate"), nil
}

// resourceMetadataParam finds resource_metadata="…" in a challenge.
var resourceMetadataParam = regexp.MustCompile(`resource_metadata="([^"]*)"`)

// resourceMetadataURLs lists where to look for protected-resource
// metadata: the challenge's URL, else the RFC 9728 §3.1 locations.
func resourceMetadataURLs(mcpURL, challenge string) []string {
	if m := resourceMetadataParam.FindStringSubmatch(challenge); m != nil {
		return []string{m[1]}
	}
	u, err := url.Parse(mcpURL)
	if err != nil {
		return nil
	}
	origin := u.Scheme + "://" + u.Host
	return []string{origin + "/.well-known/oauth-protected-resource" + u.Path, origin + "/.well-known/oauth-protected-resource"}
}

// authMetadataURLs lists where to look for an issuer's metadata: the RFC
// 8414 §3.1 location, then the path-appended one lenient clients try.
func authMetadataURLs(issuer string) []string {
	u, err := url.Parse(issuer)
	if err != nil {
		return nil
	}
	origin := u.Scheme + "://" + u.Host
	path := strings.TrimSuffix(u.Path, "/")
	out := []string{origin + "/.well-known/oauth-authorization-server" + path}
	if path != "" {
		out = append(out, origin+path+"/.well-known/oauth-authorization-server")
	}
	return out
}

// getFirstJSON decodes into v the first of urls that answers 200.
func getFirstJSON(ctx context.Context, hc *http.Client, v any, urls ...string) error {
	var errs []error
	for _, u := range urls {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return fmt.Errorf("reading %s: %w", u, err)
		}
		if resp.StatusCode != http.StatusOK {
			errs = append(errs, fmt.Errorf("%s answered %s", u, resp.Status))
			continue
		}
		return json.Unmarshal(b, v)
	}
	return errors.Join(errs...)
}

// pkce returns a verifier, its challenge and the method, S256 unless the
// server advertises plain alone.
func pkce(methods []string) (verifier, challenge, method string) {
	verifier = rand.Text() + rand.Text()
	if !slices.Contains(methods, "S256") && slices.Contains(methods, "plain") {
		return verifier, verifier, "plain"
	}
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:]), "S256"
}

// callWhoami connects with the go-sdk client, the token in the header or
// the query, and calls whoami.
func (c *Client) callWhoami(ctx context.Context, hc *http.Client, mcpURL, token string) (string, error) {
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	authed := &http.Client{Transport: bearer{base: base, token: token, inQuery: c.TokenInQuery}}
	cl := mcp.NewClient(&mcp.Implementation{Name: "oauthserver-walk", Version: "1"}, nil)
	cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: mcpURL, HTTPClient: authed}, nil)
	if err != nil {
		return "", fmt.Errorf("connecting with the token: %w", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolName})
	if err != nil {
		return "", fmt.Errorf("calling %s: %w", ToolName, err)
	}
	for _, ct := range res.Content {
		if t, ok := ct.(*mcp.TextContent); ok {
			return t.Text, nil
		}
	}
	return "", fmt.Errorf("%s answered no text", ToolName)
}

// bearer adds the access token to every request.
type bearer struct {
	base    http.RoundTripper
	token   string
	inQuery bool
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.inQuery {
		q := r.URL.Query()
		q.Set("access_token", b.token)
		r.URL.RawQuery = q.Encode()
	} else {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return b.base.RoundTrip(r)
}
