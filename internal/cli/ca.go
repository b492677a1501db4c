package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tap/mitm"
	"github.com/mcptrail/mcptrail/internal/termtext"
	"github.com/spf13/cobra"
)

// caDir is the local CA's folder in the state directory.
func caDir(state string) string { return filepath.Join(state, "ca") }

func newCACmd(io *IOStreams) *cobra.Command {
	var pathOnly bool
	cmd := &cobra.Command{
		Use:   "ca [--path]",
		Short: "Create mcptrail's local CA if needed and show how to trust it",
		Long: `Ca creates mcptrail's local certificate authority the first time it is run
and prints the path of its certificate and how to make each kind of client
trust it. The CA lives in the state directory's "ca" folder: cert.pem (the
certificate, what clients trust) and key.pem (its private key, mode 0600).
The key is never printed, copied nor sent anywhere; a key file that other
users can read is refused, not replaced.

mcptrail uses the CA only to look inside the HTTPS tunnels of the hosts you
name with 'mcptrail http --forward --intercept'; other tunnels are passed
through untouched. Trust it only in the clients you point at mcptrail, and
remove it from a trust store you added it to when you no longer need it.

With --path, ca prints the certificate's path alone, for scripts:

  NODE_EXTRA_CA_CERTS=$(mcptrail ca --path) node client.js`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("ca takes no arguments, got %q", args)
			}
			return nil
		},
		RunE: func(*cobra.Command, []string) error {
			return runCA(io, pathOnly)
		},
	}
	cmd.Flags().BoolVar(&pathOnly, "path", false, "print only the certificate's path")
	return cmd
}

func runCA(io *IOStreams, pathOnly bool) error {
	state, err := capture.StateDir(io.Getenv)
	if err != nil {
		return err
	}
	ca, err := mitm.Open(caDir(state))
	if err != nil {
		return err
	}
	text := termtext.Escape(ca.CertPath()) + "\n"
	if !pathOnly {
		text = caHelp(ca.CertPath(), ca.Subject(), ca.NotAfter())
	}
	if _, err := fmt.Fprint(io.Out, text); err != nil {
		return fmt.Errorf("writing CA: %w", err)
	}
	return nil
}

// caHelp is `mcptrail ca`'s text: the certificate and, per client, how
// to trust it.
func caHelp(path, subject string, notAfter time.Time) string {
	p := shellQuote(path)
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	line("mcptrail's local CA certificate (%s, valid until %s):", termtext.Escape(subject), notAfter.UTC().Format(time.DateOnly))
	line("  %s", termtext.Escape(path))
	line("")
	line("It is used only for the hosts named in 'mcptrail http --forward --intercept';")
	line("its key (key.pem beside it, mode 0600) never leaves this machine. Trust it")
	line("only in the clients you point at mcptrail.")
	line("")
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
	line("")
	line("macOS keychain (Go on macOS, browsers, most apps):")
	line("  security add-trusted-cert -d -r trustRoot -k ~/Library/Keychains/login.keychain-db %s", p)
	line("")
	line("Windows certificate store, current user (Go on Windows, browsers, most apps):")
	line("  certutil -user -addstore Root %s", winQuote(path))
	line("")
	line("Debian/Ubuntu system store (every program using the system roots):")
	line("  sudo cp %s /usr/local/share/ca-certificates/mcptrail-local-ca.crt", p)
	line("  sudo update-ca-certificates")
	return b.String()
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
