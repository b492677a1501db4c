package oauth

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseChallenges(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     []Challenge
		bad      bool
	}{
		{"mcp 401", `Bearer resource_metadata="https://rs.example/.well-known/oauth-protected-resource/mcp", scope="files:read"`,
			[]Challenge{{Scheme: "Bearer", Params: map[string]string{"resource_metadata": "https://rs.example/.well-known/oauth-protected-resource/mcp", "scope": "files:read"}}}, false},
		{"insufficient scope, token values", `Bearer error=insufficient_scope, scope="a b", resource_metadata="u"`,
			[]Challenge{{Scheme: "Bearer", Params: map[string]string{"error": "insufficient_scope", "scope": "a b", "resource_metadata": "u"}}}, false},
		{"two challenges", `Basic realm="x", Bearer realm="y", error="invalid_token"`,
			[]Challenge{{Scheme: "Basic", Params: map[string]string{"realm": "x"}},
				{Scheme: "Bearer", Params: map[string]string{"realm": "y", "error": "invalid_token"}}}, false},
		{"bare scheme", `Bearer`, []Challenge{{Scheme: "Bearer"}}, false},
		{"bare schemes in a list", `Negotiate, Bearer`, []Challenge{{Scheme: "Negotiate"}, {Scheme: "Bearer"}}, false},
		{"token68", `Negotiate abc+/def==, Bearer`, []Challenge{{Scheme: "Negotiate", Token68: "abc+/def=="}, {Scheme: "Bearer"}}, false},
		{"BWS and case", `bearer  Realm = "r" ,SCOPE=s`, []Challenge{{Scheme: "bearer", Params: map[string]string{"realm": "r", "scope": "s"}}}, false},
		{"quoted pair", `Bearer realm="a \"b\" \\ c"`, []Challenge{{Scheme: "Bearer", Params: map[string]string{"realm": `a "b" \ c`}}}, false},
		{"empty list elements", `, ,Bearer realm="r",,`, []Challenge{{Scheme: "Bearer", Params: map[string]string{"realm": "r"}}}, false},
		{"repeated param keeps the first", `Bearer scope=a, scope=b`, []Challenge{{Scheme: "Bearer", Params: map[string]string{"scope": "a"}}}, false},
		{"empty", ``, nil, false},
		{"unterminated", `Bearer realm="x`, nil, true},
		{"token68 with padding", `Bearer realm=`, []Challenge{{Scheme: "Bearer", Token68: "realm="}}, false},
		{"no value", `Bearer a=b, realm=`, nil, true},
		{"no equals", `Bearer realm "x"`, nil, true},
		{"second bad", `Basic realm="x", Bearer realm="y`, []Challenge{{Scheme: "Basic", Params: map[string]string{"realm": "x"}}}, true},
		{"control in quoted", "Bearer realm=\"a\x01\"", nil, true},
		{"no scheme", `="x"`, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseChallenges(tc.in)
			if (err != nil) != tc.bad || err != nil && !errors.Is(err, ErrChallenge) {
				t.Errorf("error %v, want bad=%v wrapping ErrChallenge", err, tc.bad)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("challenges (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBearerChallenge(t *testing.T) {
	t.Parallel()
	c, ok := BearerChallenge(`Basic realm="x", Bearer resource_metadata="m"`)
	if !ok || c.Params["resource_metadata"] != "m" {
		t.Errorf("got %+v %v, want the Bearer challenge", c, ok)
	}
	if _, ok := BearerChallenge(`Basic realm="x"`); ok {
		t.Error("found a Bearer challenge in a Basic-only header")
	}
}
