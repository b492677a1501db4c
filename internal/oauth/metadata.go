package oauth

import (
	"slices"

	"github.com/mcptrail/mcptrail/internal/store"
)

// metadata places a fetch of a well-known metadata document.
func (r *reader) metadata(x *store.Exchange, at location) {
	if at.kind == StepResourceMeta {
		st := resourceStep(x)
		f := r.resourceFlow(x.URL, at.id)
		if f.Resource == "" {
			f.Resource = st.Resource.Resource
		}
		f.resourceMeta[x.URL] = true
		if st.OK {
			for _, as := range st.Resource.AuthorizationServers {
				f.issuers[trimSlash(as)] = true
				f.origins[origin(as)] = true
				if f.Issuer == "" {
					f.Issuer = as
				}
			}
		}
		f.add(st)
		return
	}
	st := serverStep(x, at)
	f := r.serverFlow(x.URL, at.id)
	f.issuers[trimSlash(at.id)] = true
	if o := origin(x.URL); o != "" {
		f.origins[o] = true
	}
	if m := st.Server; st.OK {
		if m.Issuer != "" && (f.Issuer == "" || !f.hasServerMeta()) {
			f.Issuer = m.Issuer
		}
		for u, k := range map[string]string{m.AuthorizationEndpoint: StepAuthorization, m.TokenEndpoint: StepToken, m.RegistrationEndpoint: StepRegistration} {
			if u != "" {
				f.endpoints[stripQuery(u)] = k
				f.origins[origin(u)] = true
			}
		}
	}
	f.add(st)
}

func (f *flowState) hasServerMeta() bool {
	return slices.ContainsFunc(f.Steps, func(s Step) bool { return s.Kind == StepServerMeta && s.OK })
}

func trimSlash(s string) string {
	for len(s) > 0 && s[len(s)-1] == '/' {
		s = s[:len(s)-1]
	}
	return s
}

// resourceFlow finds the flow a resource-metadata fetch belongs to: the
// one whose challenge named its URL, else the one of the resource it was
// formed from, else one of the same origin; else a new one.
func (r *reader) resourceFlow(u, resource string) *flowState {
	for _, f := range slices.Backward(r.flows) {
		if f.resourceMeta[u] {
			return f
		}
	}
	if f := r.byResource(resource); f != nil {
		return f
	}
	o := origin(u)
	for _, f := range slices.Backward(r.flows) {
		if origin(f.Resource) == o {
			return f
		}
	}
	return r.open("")
}

// serverFlow finds the flow a server-metadata fetch belongs to: the one
// that names its issuer, else one with a server of the same origin; else
// the last flow, else a new one.
func (r *reader) serverFlow(u, issuer string) *flowState {
	for _, f := range slices.Backward(r.flows) {
		if f.issuers[trimSlash(issuer)] {
			return f
		}
	}
	return r.latest(u)
}
