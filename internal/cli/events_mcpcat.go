package cli

import (
	"github.com/spf13/pflag"

	"github.com/mcptrail/mcptrail/internal/events"
	"github.com/mcptrail/mcptrail/internal/events/mcpcat"
)

// Formats of --events-url bodies.
const (
	eventsFormatJSON   = "json"
	eventsFormatMCPcat = "mcpcat"
)

// envMCPcatToken holds the MCPcat API token when --mcpcat-token is not
// given.
const envMCPcatToken = "MCPCAT_API_TOKEN"

// mcpcatFlags are the flags of the MCPcat (AgentCat) API sink.
type mcpcatFlags struct {
	format  string
	project string
	token   string
	// getenv reads the token's environment variable; nil reads none.
	getenv func(string) string
}

func (f *mcpcatFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&f.format, "events-format", eventsFormatJSON, "body format of --events-url: json (batches of mcptrail events) or mcpcat (one event a request to the MCPcat API's /v1/public/events/; --events-url is then the API's base, default "+mcpcat.DefaultBaseURL+")")
	fs.StringVar(&f.project, "mcpcat-project", "", "MCPcat project `ID` (project_id) of --events-format mcpcat")
	fs.StringVar(&f.token, "mcpcat-token", "", "send `TOKEN` as 'Authorization: Token …' to the MCPcat API (default $"+envMCPcatToken+")")
}

// enabled reports whether the MCPcat sink is asked for.
func (f *mcpcatFlags) enabled() bool { return f.format == eventsFormatMCPcat }

// check reports a usage error in the MCPcat flags, given the other events
// flags.
func (f *mcpcatFlags) check(ev *eventsFlags) error {
	switch {
	case f.format != eventsFormatJSON && f.format != eventsFormatMCPcat:
		return usagef("invalid --events-format %q (want json or mcpcat)", f.format)
	case f.enabled() && f.project == "":
		return usagef("--events-format mcpcat needs --mcpcat-project ID")
	case !f.enabled() && (f.project != "" || f.token != ""):
		return usagef("--mcpcat-project and --mcpcat-token need --events-format mcpcat")
	case f.enabled() && len(ev.headers) > 0:
		return usagef("--events-header applies to --events-format json; the MCPcat API takes --mcpcat-token")
	}
	return nil
}

// sink returns the MCPcat API sink posting below base ("" for the
// default).
func (f *mcpcatFlags) sink(base string) events.Sink {
	token := f.token
	if token == "" && f.getenv != nil {
		token = f.getenv(envMCPcatToken)
	}
	return mcpcat.New(&mcpcat.Options{BaseURL: base, Project: f.project, Token: token})
}
