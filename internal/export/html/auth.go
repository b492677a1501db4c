package htmlexport

import (
	"strconv"
	"strings"
	"time"

	"github.com/mcptrail/mcptrail/internal/oauth"
	"github.com/mcptrail/mcptrail/internal/units"
)

// authFlowView is one authorization flow as the page shows it.
type authFlowView struct {
	N                int
	Resource, Issuer string
	Steps            []authStepView
}

type authStepView struct {
	Seq                                      uint64
	At, Took, Kind, Request, Status, Details string
	OK                                       bool
}

// authViews builds the authorization section of the page: one table per
// flow internal/oauth read; nil (no section) for a session without one.
func authViews(a *oauth.Auth, start time.Time) []authFlowView {
	var out []authFlowView
	for i := range a.Flows {
		f := &a.Flows[i]
		v := authFlowView{N: i + 1, Resource: shown(orDash(f.Resource)), Issuer: shown(orDash(f.Issuer))}
		for j := range f.Steps {
			st := &f.Steps[j]
			status := "—"
			if st.Status != 0 {
				status = strconv.Itoa(st.Status)
			}
			if st.Error != "" {
				status += " " + st.Error
			}
			req, _, cut := strings.Cut(st.URL, "?")
			if cut {
				req += "?…"
			}
			v.Steps = append(v.Steps, authStepView{Seq: st.Seq, At: units.Offset(st.Time.Sub(start)),
				Took: units.Millis(st.DurationMS), Kind: st.Kind, Request: shown(st.Method + " " + req), Status: shown(status),
				Details: shown(st.Details()), OK: st.OK})
		}
		out = append(out, v)
	}
	return out
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// proofView is one DPoP proof as the page shows it: its claims, never a
// signature or a token (the capture keeps neither).
type proofView struct {
	Seq                                      uint64
	At, Request, JTI, HTM, HTU, ATH, Details string
}

// proofViews lists the session's DPoP proofs; nil when it has none (or no
// flow: the auth section is not shown then).
func proofViews(a *oauth.Auth, start time.Time) []proofView {
	if len(a.Flows) == 0 {
		return nil
	}
	var out []proofView
	for i := range a.Proofs {
		p := &a.Proofs[i]
		var d []string
		for _, kv := range [][2]string{{"problem", p.Problem}, {"typ", p.Typ}, {"alg", p.Alg}, {"nonce", p.Nonce}, {"mcp", p.MCPMethod}} {
			if kv[1] != "" {
				d = append(d, kv[0]+"="+kv[1])
			}
		}
		if p.IAT != 0 {
			d = append(d, "iat="+strconv.FormatInt(p.IAT, 10))
		}
		req, _, _ := strings.Cut(p.URL, "?")
		out = append(out, proofView{Seq: p.Seq, At: units.Offset(p.Time.Sub(start)), Request: shown(p.Method + " " + req),
			JTI: shown(orDash(p.JTI)), HTM: shown(orDash(p.HTM)), HTU: shown(orDash(p.HTU)), ATH: orDash(p.ATH),
			Details: shown(orDash(strings.Join(d, " ")))})
	}
	return out
}
