package oauthserver

// Fault is one misbehaviour the oauth rules look for, as the server
// options and the Client that produce it: walk it (through a proxy, for a
// capture) with f.Client.Run against New(&f.Options).URL().
type Fault struct {
	// Name says what is wrong, in kebab case; "clean" is the correct flow.
	Name    string
	Options Options
	Client  Client
	// Completes reports whether the walk reaches whoami (the lenient
	// client goes on where a strict one stops).
	Completes bool
}

// Faults lists the clean flow and one Fault per misbehaviour.
func Faults() []Fault {
	return []Fault{
		{Name: "clean", Completes: true},
		{Name: "resource-mismatch", Options: Options{WrongResource: true}, Completes: true},
		{Name: "no-resource-metadata-param", Options: Options{NoResourceMetadataParam: true}, Completes: true},
		{Name: "no-resource-metadata", Options: Options{NoResourceMetadataParam: true, NoProtectedResourceMetadata: true}},
		{Name: "issuer-mismatch", Options: Options{IssuerMismatch: true}, Completes: true},
		{Name: "iss-mismatch", Options: Options{WrongIss: true}, Completes: true},
		{Name: "pkce-plain", Options: Options{PKCEPlain: true}, Completes: true},
		{Name: "path-issuer", Options: Options{IssuerPath: "/tenant1"}, Completes: true},
		{Name: "wrong-well-known-path", Options: Options{IssuerPath: "/tenant1", WrongWellKnownPath: true}, Completes: true},
		{Name: "token-in-query", Options: Options{AcceptQueryToken: true}, Client: Client{TokenInQuery: true}, Completes: true},
		{Name: "token-in-query-refused", Client: Client{TokenInQuery: true}},
		{Name: "audience-rejected", Options: Options{WrongAudience: true}},
		{Name: "no-resource-parameter", Options: Options{AllowMissingResource: true}, Client: Client{OmitResource: true}, Completes: true},
		{Name: "no-resource-parameter-refused", Client: Client{OmitResource: true}},
	}
}
