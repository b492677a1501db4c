package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/spf13/cobra"

	harexport "github.com/mcptrail/mcptrail/internal/export/har"
	htmlexport "github.com/mcptrail/mcptrail/internal/export/html"
	jsonexport "github.com/mcptrail/mcptrail/internal/export/json"
	textexport "github.com/mcptrail/mcptrail/internal/export/text"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/oauth"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/session"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// exportOptions are what the export command runs with: its dependencies,
// its flags and its argument.
type exportOptions struct {
	*Factory
	format  string // "json" or "text"
	output  string // "" or "-" means stdout
	input   string // "" newest session, "-" stdin, a session id or a path
	session string // --session: a session id or prefix inside the input file
	redact  redactFlags
	events  eventsExportFlags // -T events and -T otlp (events_export.go)
	rules   *finding.Registry // grades the findings ([rules] in .mcptrail.toml)
	red     redact.Redactor   // scrubs what is exported; nil: nothing
	wide    bool              // --wide: -T text's tables whole (tableout.go)
}

// newExportCmd returns the export command; runF, when not nil, runs
// instead of runExport.
func newExportCmd(fac *Factory, runF func(*exportOptions) error) *cobra.Command {
	opts := exportOptions{Factory: fac}
	cmd := &cobra.Command{
		Use:   "export [-T json|text|html|har|events|otlp] [-o FILE] [SESSION|PATH|-]",
		Short: "Write a captured session as JSON, text, HTML, HAR, analytics events or OTLP",
		Long: `Export reads a capture and writes the correlated session: its frames, calls,
MRTR operations, per-method and per-tool summary and findings.

With no argument it exports the newest session in the state directory. SESSION
is a session id (or a unique prefix of one) found there, PATH a capture file,
and - reads the capture from standard input. The JSON shape is documented in
docs/export-json.md; -T html writes one self-contained HTML report
(docs/export-html.md); -T har writes an HTTP Archive (HAR 1.2, docs/export-har.md).

-T text is a report to read: session, summary, operations, elicitation ledger
and findings first, then calls and catalog, the server's stderr lines, and the
frames last, one a line. JSON has the stderr lines too, after the frames.

A file written with --append holds several sessions: export reads the last
one and says so on stderr; --session ID picks another (from a pipe, the
first one is read unless --session names another).

-o never replaces a capture file (the input or any other); it replaces any
other existing file.

The --redact-* flags (and the [redact] table of .mcptrail.toml) scrub the
export; the capture file itself is only read.`,
		Args: oneInput("export"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.input = args[0]
			}
			var err error
			if opts.red, err = fac.Redactor(&opts.redact, cmd.Flags()); err != nil {
				return err
			}
			if opts.rules, err = fac.Rules(); err != nil {
				return err
			}
			if runF != nil {
				return runF(&opts)
			}
			return runExport(&opts)
		},
	}
	cmd.Flags().StringVarP(&opts.output, "output", "o", "", "write the export to `FILE` (default standard output)")
	cmd.Flags().StringVar(&opts.session, "session", "", "read the session `ID` (or unique id prefix) of a file that holds several")
	opts.redact.add(cmd.Flags(), "in the export")
	opts.events.add(cmd.Flags())
	addWideFlag(cmd.Flags(), &opts.wide)
	addOutputFlags(cmd, fac.IOStreams, outputSpec{Formats: exportFormats(), Format: &opts.format, OwnOutput: true, JSONHelp: "write the JSON export, the default",
		FormatHelp: "(html: one self-contained page; har: HTTP Archive 1.2; events: analytics events, JSONL; otlp: the events as OTLP/JSON)"})
	return cmd
}

// formatHAR is the HTTP Archive export format (internal/export/har).
const formatHAR = "har"

// exportView is what the export command feeds: frames as the store ingests
// them, then the final snapshot.
type exportView interface {
	Frame(*store.Frame)
	Finish(*store.Snapshot) error
}

// authView is an exportView that shows the authorization flows.
type authView interface {
	SetAuth(*oauth.Auth)
}

// stderrView is an exportView that shows the server's stderr lines.
type stderrView interface {
	Stderr(*store.StderrLine)
}

// exportGCPercent is the collector's target while an export runs, unless
// GOGC says otherwise: an export's live heap is small (the pending calls,
// the spools' buffers) and its garbage large (every frame decoded once), so
// collecting at half the default growth keeps the peak RSS of a 200k-frame
// export of 1 KiB frames near 80 MB instead of 105 MB, for no measurable
// wall time (docs/benchmarks.md).
const exportGCPercent = 50

// readerGC sets the collector to exportGCPercent for a command that reads
// a whole capture (export, check), unless GOGC is set, and returns what
// restores it.
func readerGC(ios *IOStreams) (restore func()) {
	if ios.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(exportGCPercent)
	return func() { debug.SetGCPercent(old) }
}

// runExport writes the session opts names in opts.format.
func runExport(opts *exportOptions) error {
	ios, red := opts.IOStreams, opts.red
	defer readerGC(ios)()
	if opts.format == formatEvents || opts.format == formatOTLP {
		return runEventsExport(opts)
	}
	if opts.format != "json" && opts.format != "text" && opts.format != formatHAR && opts.format != formatHTML {
		return usagef("unknown export format %q (want %s)", opts.format, formatList(exportFormats()))
	}
	r, in, name, err := openExportReader(opts)
	if err != nil {
		return err
	}
	defer in.Close()
	hdr := redactedHeader(r, red)
	return writeOutput(ios, opts.output, func(w io.Writer, spoolDir string) error {
		var view exportView
		var safe *termtext.JSONWriter // escapes C1 and bidi controls
		switch opts.format {
		case "text":
			tw := textexport.New(w, hdr, &textexport.Options{SpoolDir: spoolDir})
			defer tw.Close()
			tw.SetLayout(ios.exportTextLayout(opts.output, opts.wide))
			view = tw
		case formatHAR:
			safe = termtext.NewJSONWriter(w)
			view = harexport.New(safe, hdr, Version)
		case formatHTML:
			hw := htmlexport.New(w, hdr, &htmlexport.Options{SpoolDir: spoolDir, Version: Version, Rules: opts.rules})
			defer hw.Close()
			view = hw
		default:
			safe = termtext.NewJSONWriter(w)
			jw := jsonexport.New(safe, &jsonexport.Options{SpoolDir: spoolDir})
			defer jw.Close()
			view = jw
		}
		sopts := &session.Options{OnFrame: view.Frame, Rules: opts.rules, Header: hdr, Redactor: red}
		if sv, ok := view.(stderrView); ok {
			sopts.OnStderr = sv.Stderr
		}
		s, err := session.Load(r, sopts)
		if err != nil {
			return fmt.Errorf("reading %s: %w", name, err)
		}
		snap := s.Snapshot
		if av, ok := view.(authView); ok {
			av.SetAuth(&s.Auth)
		}
		reportDamage(ios.ErrOut, name, snap.Session.Damage)
		if err := view.Finish(snap); err != nil || safe == nil {
			return err
		}
		return safe.Flush()
	})
}

// writeOutput runs write against standard output, or against a private
// temporary file beside path that is renamed over path once complete. A
// path that is not a regular file (/dev/null, /dev/stdout, a named pipe)
// is written through, never replaced; a symbolic link is followed, so the
// file it names gets the output and the link stays.
func writeOutput(ios *IOStreams, path string, write func(w io.Writer, spoolDir string) error) error {
	if path == "" || path == "-" {
		return write(ios.Out, "")
	}
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		return writeThrough(path, write)
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return fmt.Errorf("creating output %s: a symbolic link to a missing file (mcptrail does not create the file it names; give that path instead)", path)
		}
		path = real
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("creating output %s: no directory %s", path, dir)
	}
	if err != nil {
		return fmt.Errorf("creating output %s: %w", path, reason(err))
	}
	defer os.Remove(tmp.Name()) // a no-op after the rename
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("creating output %s: %w", path, reason(err))
	}
	if err := write(tmp, dir); err != nil {
		tmp.Close()
		return outputError(path, tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, reason(err))
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, reason(err))
	}
	return nil
}

// writeThrough runs write against path, a device, pipe or socket, opened
// as it is: there is nothing to replace atomically, and replacing it (a
// rename over /dev/null) would put a file where the system has a device.
func writeThrough(path string, write func(w io.Writer, spoolDir string) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("opening output %s: %w", path, reason(err))
	}
	if err := write(f, ""); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, reason(err))
	}
	return nil
}
