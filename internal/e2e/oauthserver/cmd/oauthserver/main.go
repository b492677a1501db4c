// Command oauthserver runs the OAuth-protected MCP test server of
// internal/e2e/oauthserver until interrupted, for trying a client or
// mcptrail by hand: it prints the MCP URL, the issuer and, with -tls, the
// CA certificate file to trust. -fault names one of oauthserver.Faults.
//
//	go run ./internal/e2e/oauthserver/cmd/oauthserver [-tls] [-fault NAME]
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/mcptrail/mcptrail/internal/e2e/oauthserver"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "oauthserver:", err)
		os.Exit(1)
	}
}

func run() error {
	useTLS := flag.Bool("tls", false, "serve https with a fresh test CA")
	fault := flag.String("fault", "clean", "the misbehaviour to serve (oauthserver.Faults)")
	flag.Parse()
	var opts *oauthserver.Options
	for _, f := range oauthserver.Faults() {
		if f.Name == *fault {
			opts = &f.Options
		}
	}
	if opts == nil {
		return fmt.Errorf("no fault named %q", *fault)
	}
	if *useTLS {
		ca, err := oauthserver.NewCA()
		if err != nil {
			return err
		}
		if opts.TLS, err = ca.TLSConfig(); err != nil {
			return err
		}
		dir, err := os.MkdirTemp("", "oauthserver-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		if err := os.WriteFile(filepath.Join(dir, "ca.pem"), ca.CertPEM, 0o644); err != nil {
			return err
		}
		fmt.Println("ca   ", filepath.Join(dir, "ca.pem"))
	}
	s := oauthserver.New(opts)
	defer s.Close()
	fmt.Println("mcp  ", s.URL())
	fmt.Println("issuer", s.Issuer())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	<-sig
	o := s.Observed()
	fmt.Printf("observed: %+v\n", o)
	return nil
}
