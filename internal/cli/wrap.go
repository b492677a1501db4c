package cli

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcptrail/mcptrail/internal/clientconfig"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

const wrapLong = `Put mcptrail in front of the MCP servers your clients start, by editing
their configuration files: Claude Desktop (its Microsoft Store package's
too, on Windows), Claude Code (~/.claude.json, with this directory's local
servers, and the project's .mcp.json), Cursor (~/.cursor/mcp.json and
.cursor/mcp.json), VS Code (its user mcp.json and .vscode/mcp.json, and the
older "mcp" setting of settings.json), Windsurf, Gemini CLI
(~/.gemini/settings.json and .gemini/settings.json) and Codex
(~/.codex/config.toml and .codex/config.toml).

A stdio server's command becomes this mcptrail binary (its absolute path
as found on PATH, symbolic links kept, or --mcptrail PATH) with "--label
NAME --" and the original command line after it, so each session is
captured under the server's name. For a url server, nothing is edited:
mcptrail prints the 'mcptrail http' command to run and the URL to point
the client at. NAME is wrapped in every file that has a server of that
name; --client or --config narrows the search.

Before a file is changed, its current content is copied next to it as
FILE.mcptrail-backup-TIME (readable by you only). A client that writes
the file meanwhile keeps its write: mcptrail reads and edits it again (3
tries), then fails. A read-only file, or one with other hard links, is
refused (--dry-run still shows the change). Only the bytes of the
entries wrapped change: comments, key order and layout stay. Wrapping a
wrapped server changes nothing. 'mcptrail unwrap' gives back the original
entries byte for byte. --dry-run prints the change as a diff and writes
nothing. Restart the client (or reload its MCP servers) afterwards.

To let the client's agent read the captures, add mcptrail itself as a
server: 'claude mcp add mcptrail -- mcptrail mcp' (Claude Code), 'codex mcp
add mcptrail -- mcptrail mcp' (Codex), or a server with command mcptrail and
args ["mcp"] in Cursor's or VS Code's mcp.json; 'mcptrail mcp --help' and
docs/mcp.md say what it serves.`

// wrapFlags are the flags wrap and unwrap share.
type wrapFlags struct {
	all      bool
	client   string
	config   string
	dryRun   bool
	mcptrail string
	capture  string
}

// wrapOptions are what wrap and unwrap run with: their dependencies, their
// flags and the server names of the command line.
type wrapOptions struct {
	*Factory
	flags wrapFlags
	args  []string // the server name, if any
	wrap  bool     // wrap, not unwrap
}

// newWrapCmd returns the wrap command; runF, when not nil, runs instead of
// runWrap.
func newWrapCmd(fac *Factory, runF func(*wrapOptions) error) *cobra.Command {
	return newWrapUnwrapCmd(fac, true, runF)
}

// newUnwrapCmd returns the unwrap command; runF as for newWrapCmd.
func newUnwrapCmd(fac *Factory, runF func(*wrapOptions) error) *cobra.Command {
	return newWrapUnwrapCmd(fac, false, runF)
}

func newWrapUnwrapCmd(fac *Factory, wrap bool, runF func(*wrapOptions) error) *cobra.Command {
	opts := &wrapOptions{Factory: fac, wrap: wrap}
	f := &opts.flags
	cmd := &cobra.Command{
		Use:   "wrap (NAME | --all) [flags]",
		Short: "Put mcptrail in front of the servers in your MCP clients' configs",
		Long:  wrapLong,
		Example: `  mcptrail wrap github --dry-run
  mcptrail wrap --all --client claude-desktop
  mcptrail wrap filesystem --config ./claude_desktop_config.json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.args = args
			if runF != nil {
				return runF(opts)
			}
			return runWrap(opts)
		},
	}
	if !wrap {
		cmd.Use = "unwrap (NAME | --all) [flags]"
		cmd.Short = "Take mcptrail out of the servers 'mcptrail wrap' wrapped"
		cmd.Long = "Undo 'mcptrail wrap': restore each wrapped server's original entry, byte for\nbyte, after a backup of the file (FILE.mcptrail-backup-TIME). Entries wrap\ndid not write are left alone; unwrapping twice changes nothing."
		cmd.Example = "  mcptrail unwrap --all\n  mcptrail unwrap github --client cursor --dry-run"
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.all, "all", false, "every server of the configurations found")
	fl.StringVar(&f.client, "client", "", "only the configurations of `CLIENT`: "+strings.Join(clientconfig.Clients(), ", "))
	fl.StringVar(&f.config, "config", "", "edit `FILE` instead of searching the clients' usual places (TOML if it ends in .toml)")
	fl.BoolVar(&f.dryRun, "dry-run", false, "print the change as a unified diff; write nothing")
	if !wrap {
		fl.StringVar(&f.mcptrail, "mcptrail", "", "also take entries whose command is `PATH` for mcptrail (as wrap --mcptrail wrote them)")
	}
	if wrap {
		fl.StringVar(&f.mcptrail, "mcptrail", "", "the mcptrail command to write, as `PATH` (default: this binary's absolute path, as found on PATH)")
		fl.StringVar(&f.capture, "capture", "", "also write --capture `TEMPLATE` (fields {time}, {label}, {pid}, {id}); default: the sessions directory")
	}
	return cmd
}

// check validates the invocation and returns the server names to act on
// (nil: all).
func (f *wrapFlags) check(args []string) ([]string, error) {
	switch {
	case len(args) == 0 && !f.all:
		return nil, usagef("name a server, or pass --all")
	case len(args) == 1 && f.all:
		return nil, usagef("name a server or pass --all, not both")
	case f.client != "" && !slices.Contains(clientconfig.Clients(), f.client):
		return nil, usagef("--client %q: not a known client (%s)", f.client, strings.Join(clientconfig.Clients(), ", "))
	}
	if f.all {
		return nil, nil
	}
	return args, nil
}

// runWrap wraps (or unwraps) the servers opts names in every
// configuration file found.
func runWrap(opts *wrapOptions) error {
	io, f, wrap := opts.IOStreams, &opts.flags, opts.wrap
	names, err := f.check(opts.args)
	if err != nil {
		return err
	}
	copts := &clientconfig.Options{Mcptrail: f.mcptrail, Capture: f.capture}
	if wrap && copts.Mcptrail == "" {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("finding this binary's path (pass --mcptrail PATH): %w", err)
		}
		copts.Mcptrail = selfPath(os.Args[0], exe)
		if rel, err := filepath.Rel(os.TempDir(), copts.Mcptrail); err == nil && !strings.HasPrefix(rel, "..") {
			fmt.Fprintf(io.ErrOut, "mcptrail: warning: this binary is in a temporary directory (go run?): the clients would lose it; pass --mcptrail PATH\n")
		}
	}
	locs, err := f.locations(io)
	if err != nil {
		return err
	}
	run := wrapRun{io: io, f: f, opts: copts, wrap: wrap}
	for _, loc := range locs {
		if err := run.file(loc, names); err != nil {
			return err
		}
	}
	if len(run.found) == 0 {
		return run.notFound(names, locs)
	}
	if missing := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return slices.Contains(run.found, n) }); len(missing) > 0 {
		return run.notFound(missing, locs)
	}
	return nil
}

// locations lists the existing configuration files to edit.
func (f *wrapFlags) locations(io *IOStreams) ([]clientconfig.Location, error) {
	if f.config != "" {
		layout := clientconfig.Layout{Format: clientconfig.JSON}
		if f.client == "codex" || strings.HasSuffix(f.config, ".toml") {
			layout.Format = clientconfig.TOML
		}
		if _, err := os.Stat(f.config); err != nil {
			return nil, notFoundf("reading %s: %w", f.config, err)
		}
		return []clientconfig.Location{{Client: f.client, Scope: "file", Path: f.config, Layout: layout}}, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("finding the working directory: %w", err)
	}
	env := &clientconfig.Env{GOOS: runtime.GOOS, Home: userHome(io), Dir: dir, Getenv: io.Getenv, Glob: filepath.Glob}
	var out []clientconfig.Location
	var looked []string
	for _, loc := range clientconfig.Locations(env, f.client) {
		if !slices.Contains(looked, loc.Path) {
			looked = append(looked, loc.Path)
		}
		if _, err := os.Stat(loc.Path); err == nil {
			out = append(out, loc)
		}
	}
	if len(out) == 0 {
		return nil, notFoundf("no MCP client configuration found; looked for:\n  %s\n(pass --config FILE to name one)", strings.Join(looked, "\n  "))
	}
	return out, nil
}

// userHome is the home directory from the environment ($HOME, or
// %USERPROFILE% on Windows).
func userHome(io *IOStreams) string {
	if runtime.GOOS == "windows" {
		if h := io.Getenv("USERPROFILE"); h != "" {
			return h
		}
	}
	if h := io.Getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

// wrapRun is one wrap or unwrap over the configuration files.
type wrapRun struct {
	io     *IOStreams
	f      *wrapFlags
	opts   *clientconfig.Options
	wrap   bool
	found  []string // names of the servers met
	broken []string // files skipped as unreadable
	port   int      // the next --listen port to suggest for a url server
}

// changeAttempts is how many times a file is read and edited again when
// its client writes it meanwhile (Claude Code rewrites ~/.claude.json all
// the time).
const changeAttempts = 3

// file wraps or unwraps the servers named in names in one file, reading
// and editing it again if its client wrote it meanwhile.
func (r *wrapRun) file(loc clientconfig.Location, names []string) error {
	for attempt := 1; ; attempt++ {
		err := r.fileOnce(loc, names)
		if !errors.Is(err, clientconfig.ErrChanged) || attempt == changeAttempts {
			return err
		}
	}
}

// fileOnce is one attempt of file. A file that cannot be read as its
// format is skipped with a warning (another client's broken file must not
// stop the rest) unless --config named it. What happened to each server
// is reported once the file is written: a failed write reports nothing
// as done.
func (r *wrapRun) fileOnce(loc clientconfig.Location, names []string) error {
	f, err := clientconfig.Read(loc.Path)
	if err != nil {
		return err
	}
	var out []byte
	var changes []clientconfig.Change
	if r.wrap {
		out, changes, err = clientconfig.Wrap(f.Data, loc.Layout, names, r.opts)
	} else {
		out, changes, err = clientconfig.Unwrap(f.Data, loc.Layout, names, r.opts)
	}
	if err != nil {
		if r.f.config != "" {
			return badInput(fmt.Errorf("reading %s: %w", loc.Path, err))
		}
		if !slices.Contains(r.broken, loc.Path) {
			r.broken = append(r.broken, loc.Path)
			fmt.Fprintf(r.io.ErrOut, "mcptrail: skipping %s: %s\n", termtext.Escape(loc.Path), termtext.Escape(err.Error()))
		}
		return nil
	}
	backup := ""
	if string(out) != string(f.Data) && !r.f.dryRun {
		if backup, err = f.Replace(out, r.io.Now()); err != nil {
			return err
		}
	}
	for _, c := range changes {
		r.found = append(r.found, c.Name)
		r.report(loc, c)
	}
	switch {
	case string(out) == string(f.Data):
	case r.f.dryRun:
		fmt.Fprint(r.io.Out, escapeDiff(clientconfig.Diff(loc.Path, f.Data, out)))
	default:
		fmt.Fprintf(r.io.ErrOut, "%s: written (backup: %s)\n", termtext.Escape(loc.Path), termtext.Escape(filepath.Base(backup)))
	}
	return nil
}

// escapeDiff makes a diff safe for the terminal: a line holding a
// control character, a bidi control or an invalid byte (a CR inside a
// line included) is escaped whole (termtext); the other lines, and a CR
// that ends a line, print as they are, so a benign file's diff, a CRLF
// or Windows-path one included, is unchanged.
func escapeDiff(diff string) string {
	var b strings.Builder
	for line := range strings.SplitAfterSeq(diff, "\n") {
		body, nl := strings.CutSuffix(line, "\n")
		body, cr := strings.CutSuffix(body, "\r")
		if hostile(body) {
			body = termtext.EscapeMultiline(body)
		}
		b.WriteString(body)
		if cr {
			b.WriteByte('\r')
		}
		if nl {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// hostile reports whether termtext would escape more of s than its
// backslashes.
func hostile(s string) bool {
	bare := strings.ReplaceAll(s, `\`, "")
	return termtext.EscapeMultiline(bare) != bare
}

// report says what happened to one server, on stderr (stdout carries the
// diff of --dry-run).
func (r *wrapRun) report(loc clientconfig.Location, c clientconfig.Change) {
	w := r.io.ErrOut
	verb := map[clientconfig.Action]string{
		clientconfig.Wrapped:        "wrapped",
		clientconfig.Unwrapped:      "unwrapped",
		clientconfig.AlreadyWrapped: "already runs through mcptrail; unchanged",
		clientconfig.NotWrapped:     "is not wrapped; unchanged",
	}[c.Action]
	if r.f.dryRun && (c.Action == clientconfig.Wrapped || c.Action == clientconfig.Unwrapped) {
		verb = "would be " + verb
	}
	switch c.Action {
	case clientconfig.Skipped:
		fmt.Fprintf(w, "%s: %s: left alone: %s\n", where(loc), termtext.Escape(c.Name), c.Why)
	case clientconfig.Remote:
		if r.wrap {
			r.reportRemote(loc, c)
		}
	default:
		fmt.Fprintf(w, "%s: %s %s\n", where(loc), termtext.Escape(c.Name), verb)
	}
}

// reportRemote prints how to put mcptrail http in front of a url server.
func (r *wrapRun) reportRemote(loc clientconfig.Location, c clientconfig.Change) {
	port := 7000 + r.port
	r.port++
	local := fmt.Sprintf("http://127.0.0.1:%d/", port)
	if u, err := url.Parse(c.URL); err == nil && u.Path != "" {
		local = fmt.Sprintf("http://127.0.0.1:%d%s", port, u.EscapedPath())
	}
	esc := termtext.Escape
	fmt.Fprintf(r.io.ErrOut, "%s: %s is a url server (%s: %s); its entry is not edited. Run\n"+
		"    mcptrail http --target %s --label %s --listen 127.0.0.1:%d\n"+
		"  and set its %s to %s\n", where(loc), esc(c.Name), c.URLKey, esc(c.URL), esc(shellQuote(c.URL)), esc(shellQuote(c.Name)), port, c.URLKey, esc(local))
	if c.Type == "sse" || (loc.Client == "gemini" && c.URLKey == "url") {
		fmt.Fprintf(r.io.ErrOut, "  (%s uses the old HTTP+SSE transport; mcptrail http is made for Streamable HTTP)\n", esc(c.Name))
	}
}

// where names a list of servers, escaped for the terminal: its file, and
// for a Claude Code project's own (local) servers in ~/.claude.json, the
// project.
func where(loc clientconfig.Location) string {
	if loc.Scope == "local" && len(loc.Servers) == 3 {
		return fmt.Sprintf("%s (project %s)", termtext.Escape(loc.Path), termtext.Escape(loc.Servers[1]))
	}
	return termtext.Escape(loc.Path)
}

// notFound is the error for server names no configuration holds.
func (r *wrapRun) notFound(names []string, locs []clientconfig.Location) error {
	paths := make([]string, 0, len(locs))
	for _, l := range locs {
		if !slices.Contains(paths, l.Path) {
			paths = append(paths, l.Path)
		}
	}
	what := "no MCP server"
	if len(names) > 0 {
		what = fmt.Sprintf("no MCP server named %q", strings.Join(names, ", "))
	}
	return notFoundf("%s in:\n  %s", what, strings.Join(paths, "\n  "))
}
