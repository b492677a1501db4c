package cli

import (
	"fmt"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/spf13/cobra"

	textexport "github.com/mcptrail/mcptrail/internal/export/text"
	"github.com/mcptrail/mcptrail/internal/oauth"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/session"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// authOptions are the auth command's flags and argument.
type authOptions struct {
	asJSON  bool
	input   string // "" newest session, "-" stdin, a session id or a path
	session string // --session: a session id or prefix inside the input file
	redact  redactFlags
	wide    bool // --wide: every column whole (tableout.go)
}

func newAuthCmd(fac *Factory) *cobra.Command {
	opts := authOptions{}
	cmd := &cobra.Command{
		Use:   "auth [--json] [SESSION|PATH|-]",
		Short: "Show the OAuth authorization flow a session went through, step by step",
		Long: `Auth prints the authorization flow in front of a remote server, as the
forward proxy (mcptrail http --forward) captured it: the 401 and its
WWW-Authenticate (resource_metadata, scope, error), the protected-resource
metadata (resource, authorization_servers), the authorization-server metadata
(issuer, PKCE methods, registration), dynamic client registration (client id
and redirect URIs, never a secret), the authorization request and callback
when they passed the proxy, the token request (grant type, resource, scopes
asked and granted, lifetime, or the OAuth error) and the first MCP request
with a bearer token, with when each started and how long it took. A session
that reached several servers shows one flow per resource and issuer. No
token value is ever shown: the capture holds none.

SESSION, PATH, - and --session pick the capture as for export. --json writes
the flows as the export's "auth" member (docs/export-json.md). The oauth
rules (mcptrail rules --category oauth) judge the same flows.`,
		Args: oneInput("auth"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.input = args[0]
			}
			red, err := fac.Redactor(&opts.redact, cmd.Flags())
			if err != nil {
				return err
			}
			return runAuth(fac, &opts, red)
		},
	}
	cmd.Flags().StringVar(&opts.session, "session", "", "read the session `ID` (or unique id prefix) of a file that holds several")
	opts.redact.add(cmd.Flags(), "before the flow is read")
	addWideFlag(cmd.Flags(), &opts.wide)
	addOutputFlags(cmd, fac.IOStreams, outputSpec{Formats: textJSON(), JSON: &opts.asJSON, JSONHelp: "write the flows as JSON instead of tables"})
	return cmd
}

func runAuth(fac *Factory, opts *authOptions, red redact.Redactor) error {
	ios := fac.IOStreams
	ci, err := openExportInput(fac, opts.input, opts.session)
	if err != nil {
		return err
	}
	defer ci.in.Close()
	r, err := openSession(ios, ci)
	if err != nil {
		return err
	}
	s, err := session.Load(r, &session.Options{NoChecks: true, Redactor: red})
	if err != nil {
		return fmt.Errorf("reading %s: %w", ci.name, err)
	}
	snap, a := s.Snapshot, s.Auth
	reportDamage(ios.ErrOut, ci.name, snap.Session.Damage)
	if opts.asJSON {
		if a.Flows == nil {
			a.Flows = []oauth.Flow{}
		}
		b, err := json.Marshal(a, jsontext.AllowInvalidUTF8(true))
		if err != nil {
			return fmt.Errorf("encoding the flow: %w", err)
		}
		if err := writeJSON(ios.Out, append(b, '\n')); err != nil {
			return fmt.Errorf("writing the flow: %w", err)
		}
		return nil
	}
	if len(a.Flows) == 0 {
		fmt.Fprintf(ios.ErrOut, "no authorization flow in %s\n", termtext.Escape(ci.name))
		return nil
	}
	return textexport.WriteAuth(ios.Out, &a, snap.Session.Start, ios.textLayout(opts.wide))
}
