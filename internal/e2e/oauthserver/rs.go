package oauthserver

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The MCP server's identity and its one tool.
const (
	Name     = "e2e-oauth-server"
	Version  = "0.1.0"
	ToolName = "whoami"
)

// resourceHandler serves the resource server: protected-resource
// metadata and MCP behind bearer tokens.
func (s *Server) resourceHandler() http.Handler {
	mux := http.NewServeMux()
	if !s.opts.NoProtectedResourceMetadata {
		mux.HandleFunc("GET /.well-known/oauth-protected-resource"+MCPPath, s.serveResourceMetadata)
		mux.HandleFunc("GET /.well-known/oauth-protected-resource", s.serveResourceMetadata)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: Name, Version: Version}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: ToolName, Description: "says which OAuth client is calling"}, s.whoami)
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	var ro auth.RequireBearerTokenOptions
	ro.Scopes = []string{Scope}
	if !s.opts.NoResourceMetadataParam {
		ro.ResourceMetadataURL = s.ResourceMetadataURL()
	}
	protected := auth.RequireBearerToken(s.verify, &ro)(mcpHandler)
	if s.opts.AcceptQueryToken {
		protected = queryToken(protected)
	}
	mux.Handle(MCPPath, protected)
	return mux
}

// serveResourceMetadata answers RFC 9728 protected-resource metadata.
func (s *Server) serveResourceMetadata(w http.ResponseWriter, r *http.Request) {
	s.st.document(s.rsURL + r.URL.Path)
	writeJSON(w, http.StatusOK, map[string]any{
		"resource":                 s.advertisedResource(),
		"authorization_servers":    []string{s.Issuer()},
		"scopes_supported":         []string{Scope},
		"bearer_methods_supported": []string{"header"},
		"resource_name":            Name,
	})
}

// verify checks a bearer token: known, and bound to this server's URL.
func (s *Server) verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	g := st.tokens[token]
	check := AudienceCheck{Want: s.URL()}
	if g != nil {
		check.Audience = g.audience
		check.OK = g.audience == s.URL()
	}
	st.seen.AudienceChecks = append(st.seen.AudienceChecks, check)
	if !check.OK {
		return nil, fmt.Errorf("%w: unknown token or another audience", auth.ErrInvalidToken)
	}
	return &auth.TokenInfo{Scopes: []string{Scope}, Expiration: time.Now().Add(time.Hour), UserID: g.clientID}, nil
}

// queryToken moves an access_token query parameter into the Authorization
// header (RFC 6750 §2.3), for the AcceptQueryToken fault.
func queryToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if tok := r.URL.Query().Get("access_token"); tok != "" && r.Header.Get("Authorization") == "" {
			r = r.Clone(r.Context())
			r.Header.Set("Authorization", "Bearer "+tok)
		}
		next.ServeHTTP(w, r)
	})
}

// whoami answers with the calling client's id.
func (s *Server) whoami(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	id := "anonymous"
	if ti := req.Extra.TokenInfo; ti != nil {
		id = ti.UserID
	}
	s.st.mu.Lock()
	s.st.seen.ToolCalls = append(s.st.seen.ToolCalls, id)
	s.st.mu.Unlock()
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: WhoamiText(id)}}}, nil, nil
}

// WhoamiText is the whoami tool's answer to the client clientID.
func WhoamiText(clientID string) string { return "you are " + clientID }
