package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcptrail/mcptrail/internal/tap/mitm"
	"github.com/mcptrail/mcptrail/internal/termtext"
	"github.com/spf13/cobra"
)

func newCACmd(fac *Factory) *cobra.Command {
	var o caOptions
	cmd := &cobra.Command{
		Use:   "ca [--intercept HOST,...] [--path]",
		Short: "Create mcptrail's local CA if needed and show how to trust it",
		Long: `Ca creates mcptrail's local certificate authority the first time it is run
and prints the path of its certificate and how to make each kind of client
trust it. The CA lives in the state directory's "ca" folder: cert.pem (the
certificate, what clients trust) and key.pem (its private key, mode 0600).
The key is never printed, copied nor sent anywhere; a key file that other
users can read is refused, not replaced. A CA lasts a year.

mcptrail uses the CA only to look inside the HTTPS tunnels of the hosts you
name with 'mcptrail http --forward --intercept'; other tunnels are passed
through untouched. With --intercept HOST,... (the same hosts), ca shows the
CA of those hosts: it carries X.509 name constraints, so it can vouch for
those hosts (and their subdomains) alone, whoever holds its key; each set
of hosts has its own, in a folder inside "ca". Without --intercept it shows
the CA that --intercept-all uses, which may vouch for any host.

Trust it only in the clients you point at mcptrail (the first commands ca
prints); a system-wide store makes every program on the machine trust it.
Remove it from a trust store you added it to when you no longer need it.

With --path, ca prints the certificate's path alone, for scripts:

  NODE_EXTRA_CA_CERTS=$(mcptrail ca --path --intercept mcp.example.com) node client.js`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("ca takes no arguments, got %q", args)
			}
			return nil
		},
		RunE: func(*cobra.Command, []string) error {
			return runCA(fac, &o)
		},
	}
	cmd.Flags().BoolVar(&o.pathOnly, "path", false, "print only the certificate's path")
	cmd.Flags().StringSliceVar(&o.hosts, "intercept", nil, "the CA of the `HOST`s given to 'mcptrail http --forward --intercept', constrained to them")
	return cmd
}

// caOptions are the ca command's flags.
type caOptions struct {
	pathOnly bool
	hosts    []string // --intercept: the CA constrained to these hosts
}

func runCA(fac *Factory, o *caOptions) error {
	io := fac.IOStreams
	state, err := fac.StateDir()
	if err != nil {
		return err
	}
	ca, err := mitm.Open(mitm.Dir(state, o.hosts), &mitm.Options{Hosts: o.hosts})
	if err != nil {
		return err
	}
	text := termtext.Escape(ca.CertPath()) + "\n"
	if !o.pathOnly {
		text = caHelp(ca)
	}
	if _, err := fmt.Fprint(io.Out, text); err != nil {
		return fmt.Errorf("writing CA: %w", err)
	}
	return nil
}

// caHelp is `mcptrail ca`'s text: the certificate, what it may vouch
// for, and how to trust it: per client first, then system-wide.
func caHelp(ca *mitm.Authority) string {
	path := ca.CertPath()
	p := shellQuote(path)
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	line("mcptrail's local CA certificate (%s, valid until %s):", termtext.Escape(ca.Subject()), ca.NotAfter().UTC().Format(time.DateOnly))
	line("  %s", termtext.Escape(path))
	line("")
	names, constrained := ca.Constrained()
	if constrained {
		line("It may vouch only for %s (X.509 name constraints), and is used", termtext.Escape(strings.Join(names, ", ")))
		line("for 'mcptrail http --forward --intercept' of those hosts.")
	} else {
		line("It may vouch for any host: 'mcptrail http --forward --intercept-all' uses it.")
		line("For a CA limited to the hosts you intercept, run 'mcptrail ca --intercept HOST,...'.")
	}
	line("Its key (key.pem beside it, mode 0600) never leaves this machine. Trust it")
	line("only in the clients you point at mcptrail:")
	line("")
	caClientHelp(line, p)
	line("")
	line("Only for a client that reads nothing but a system store: these make every")
	line("program of this user (or, for the last, of the machine) trust it.")
	line("")
	caSystemHelp(line, path, p)
	return b.String()
}

// caClientHelp prints how each kind of client trusts the certificate at
// p (quoted) for itself alone.
func caClientHelp(line func(string, ...any), p string) {
	line("Node.js (added to Node's own roots; read when node starts):")
	line("  export NODE_EXTRA_CA_CERTS=%s", p)
	line("")
	line("Python requests (REQUESTS_CA_BUNDLE), httpx, urllib, and Go on Linux (SSL_CERT_FILE):")
	line("these replace the usual roots, so give them a bundle of the usual roots and this one:")
	line("  cat /etc/ssl/certs/ca-certificates.crt %s > mcptrail-bundle.pem", p)
	line(`  (elsewhere than Debian/Ubuntu, start from "$(python3 -m certifi)")`)
	line("  export SSL_CERT_FILE=\"$PWD/mcptrail-bundle.pem\" REQUESTS_CA_BUNDLE=\"$PWD/mcptrail-bundle.pem\"")
	line("")
	line("curl:")
	line("  curl --cacert %s ...", p)
}

// caSystemHelp prints the system-wide trust commands for the certificate
// at path (p quoted for a POSIX shell).
func caSystemHelp(line func(string, ...any), path, p string) {
	line("macOS keychain (Go on macOS, browsers, most apps):")
	line("  security add-trusted-cert -d -r trustRoot -k ~/Library/Keychains/login.keychain-db %s", p)
	line("")
	line("Windows certificate store, current user (Go on Windows, browsers, most apps):")
	line("  certutil -user -addstore Root %s", winQuote(path))
	line("")
	line("Debian/Ubuntu system store (every program using the system roots):")
	line("  sudo cp %s /usr/local/share/ca-certificates/mcptrail-local-ca.crt", p)
	line("  sudo update-ca-certificates")
}

// shellQuote spells path for a POSIX shell: as is when it holds only
// characters no shell treats specially, else in single quotes; escaped
// for the terminal either way.
func shellQuote(path string) string {
	safe := strings.IndexFunc(path, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:,@%", r))
	}) < 0
	if safe && path != "" {
		return termtext.Escape(path)
	}
	return termtext.Escape("'" + strings.ReplaceAll(path, "'", `'\''`) + "'")
}

// winQuote spells path for cmd.exe and PowerShell: in double quotes when
// it holds a space.
func winQuote(path string) string {
	if strings.ContainsAny(path, " \t&()") {
		path = `"` + path + `"`
	}
	return termtext.Escape(path)
}
