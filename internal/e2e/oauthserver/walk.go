package oauthserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// authorize registers, gets a code from the authorization endpoint and
// redeems it; it returns the access token.
func (c *Client) authorize(ctx context.Context, hc *http.Client, mcpURL string, asm *authMetadata, tr *Trace) (string, error) {
	const redirect = "http://127.0.0.1:9/callback"
	var reg struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	md := map[string]any{"client_name": "oauthserver-walk", "redirect_uris": []string{redirect},
		"token_endpoint_auth_method": "client_secret_post", "grant_types": []string{"authorization_code", "refresh_token"}}
	if err := postJSON(ctx, hc, asm.RegistrationEndpoint, md, &reg); err != nil {
		return "", fmt.Errorf("registering: %w", err)
	}
	tr.ClientID = reg.ClientID
	verifier, challenge, method := pkce(asm.PKCEMethods)
	q := url.Values{"response_type": {"code"}, "client_id": {reg.ClientID}, "redirect_uri": {redirect},
		"code_challenge": {challenge}, "code_challenge_method": {method}, "state": {"walk-state"}, "scope": {Scope}}
	if !c.OmitResource {
		q.Set("resource", mcpURL)
	}
	cb, err := getRedirect(ctx, hc, asm.AuthorizationEndpoint+"?"+q.Encode())
	if err != nil {
		return "", err
	}
	tr.Iss = cb.Get("iss")
	if e := cb.Get("error"); e != "" {
		return "", fmt.Errorf("authorization answered error %s", e)
	}
	form := url.Values{"grant_type": {"authorization_code"}, "code": {cb.Get("code")}, "redirect_uri": {redirect},
		"client_id": {reg.ClientID}, "client_secret": {reg.ClientSecret}, "code_verifier": {verifier}}
	if !c.OmitResource {
		form.Set("resource", mcpURL)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := postForm(ctx, hc, asm.TokenEndpoint, form, &tok); err != nil {
		return "", fmt.Errorf("redeeming the code: %w", err)
	}
	return tok.AccessToken, nil
}

// getRedirect requests u and returns the query of the redirect it answers.
func getRedirect(ctx context.Context, hc *http.Client, u string) (url.Values, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("authorizing: %w", err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil {
		return nil, fmt.Errorf("authorization endpoint answered %s without a usable redirect", resp.Status)
	}
	return loc.Query(), nil
}

// postJSON posts v as JSON to u and decodes a 2xx answer into out.
func postJSON(ctx context.Context, hc *http.Client, u string, v, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return post(ctx, hc, u, "application/json", string(b), out)
}

// postForm posts form to u and decodes a 2xx answer into out.
func postForm(ctx context.Context, hc *http.Client, u string, form url.Values, out any) error {
	return post(ctx, hc, u, "application/x-www-form-urlencoded", form.Encode(), out)
}

func post(ctx context.Context, hc *http.Client, u, ctype, body string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", ctype)
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("reading %s: %w", u, err)
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s answered %s: %s", u, resp.Status, b)
	}
	return json.Unmarshal(b, out)
}
