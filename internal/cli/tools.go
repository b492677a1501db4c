package cli

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/mcptrail/mcptrail/internal/check"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/termtext"
	"github.com/mcptrail/mcptrail/internal/toolcat"
)

// toolsOptions are what the tools command runs with: its dependencies,
// its flags and its argument.
type toolsOptions struct {
	*Factory
	asJSON  bool
	input   string // "" newest session, "-" stdin, a session id or a path
	session string // --session: a session id or prefix inside the input file
	save    string // --save-baseline FILE
	wide    bool
}

// newToolsCmd returns the tools command; runF, when not nil, runs instead
// of runTools (a test's look at the options the command line made).
func newToolsCmd(fac *Factory, runF func(*toolsOptions) error) *cobra.Command {
	opts := toolsOptions{Factory: fac}
	cmd := &cobra.Command{
		Use:   "tools [--json] [--save-baseline FILE] [SESSION|PATH|-]",
		Short: "Print a session's tool catalog; pin it as a baseline for check --tools-baseline",
		Long: `Tools prints the tools a session's server listed in its latest tools/list
(every page the client read; stderr says when the listing was not read to
its last page): name, title, annotations (a true hint by its name alone,
readOnly for readOnlyHint=true), the arguments of its inputSchema (name:type,
* when required) and the first 12 hex digits of its definition hash (SHA-256
of the definition in RFC 8785 canonical form, so the same definition hashes
alike in any session). --json writes the whole catalog, full hashes included
(docs/tools.md). SESSION, PATH, - and --session pick the capture as for
export; with no argument, the newest session.

--save-baseline FILE pins the catalog in a versioned JSON file (mode 0600)
that check --tools-baseline FILE compares later sessions with, raising
tool-added, tool-removed, tool-description-changed, tool-schema-loosened,
tool-schema-tightened and tool-annotations-changed. An existing FILE is
replaced only when it is a tools baseline (re-pinning, said on stderr); any
other existing file is refused. A session that never listed its tools has
nothing to pin (exit 3). Pinning prints the catalog as tools alone does.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("tools takes at most one SESSION, PATH or -, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.input = args[0]
			}
			if runF != nil {
				return runF(&opts)
			}
			return runTools(&opts)
		},
	}
	cmd.Flags().StringVar(&opts.session, "session", "", "read the session `ID` (or unique id prefix) of a file that holds several")
	cmd.Flags().StringVar(&opts.save, "save-baseline", "", "pin the catalog to the tools baseline `FILE` (for check --tools-baseline)")
	addWideFlag(cmd.Flags(), &opts.wide)
	addOutputFlags(cmd, fac.IOStreams, outputSpec{Formats: textJSON(), JSON: &opts.asJSON, JSONHelp: "write the catalog as JSON instead of a table"})
	return cmd
}

// sessionTools is the tool catalog of one session and the name of its
// capture, for messages.
type sessionTools struct {
	*toolcat.Catalog
	name string
}

// runTools prints (or pins) the tool catalog of the session opts names.
func runTools(opts *toolsOptions) error {
	ios := opts.IOStreams
	if err := checkToolsBaselinePath(opts.save); err != nil {
		return err
	}
	st, err := loadTools(opts)
	if err != nil {
		return err
	}
	if st.Listed && !st.Complete {
		fmt.Fprintf(ios.ErrOut, "mcptrail: the latest tools/list of %s was not read from its first page to its last; tools may be missing\n",
			termtext.Escape(st.name))
	}
	if opts.save != "" {
		if !st.Listed && len(st.Skills) == 0 {
			return notFoundf("nothing to pin: session %s never got a tools/list result", st.Session)
		}
		if err := saveToolsBaseline(ios, opts.save, rules.NewToolBaseline(st.Session, st.Tools, st.Skills)); err != nil {
			return err
		}
	}
	if opts.asJSON {
		return st.WriteJSON(ios.Out)
	}
	if !st.Listed {
		fmt.Fprintf(ios.ErrOut, "no tools/list result in %s\n", termtext.Escape(st.name))
	} else if err := st.WriteTable(ios.Out, ios.colorOn(), ios.tableWidth(opts.wide)); err != nil {
		return err
	} else if len(st.Skills) > 0 {
		fmt.Fprintln(ios.Out)
	}
	return st.WriteSkills(ios.Out, ios.colorOn(), ios.tableWidth(opts.wide))
}

// loadTools reads the capture the argument names (as export does).
func loadTools(opts *toolsOptions) (sessionTools, error) {
	ios := opts.IOStreams
	ci, err := openExportInput(opts.Factory, opts.input, opts.session)
	if err != nil {
		return sessionTools{}, err
	}
	defer ci.in.Close()
	r, err := openSession(ios, ci)
	if err != nil {
		return sessionTools{}, err
	}
	snap, err := opts.LoadSnapshot(r, nil)
	if err != nil {
		return sessionTools{}, fmt.Errorf("reading %s: %w", ci.name, err)
	}
	reportDamage(ios.ErrOut, ci.name, snap.Session.Damage)
	return sessionTools{Catalog: toolcat.Of(snap), name: ci.name}, nil
}

// checkToolsBaselinePath refuses a --save-baseline path that is -, a
// directory, or an existing file that is not a tools baseline.
func checkToolsBaselinePath(path string) error {
	if path == "" {
		return nil
	}
	if path == "-" {
		return usagef("--save-baseline takes a file name, not -")
	}
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("checking %s: %w", path, reason(err))
	}
	if !fi.Mode().IsRegular() {
		return usagef("--save-baseline %s exists and is not a regular file", path)
	}
	if _, err := readToolsBaselineFile(path); err != nil {
		return usagef("--save-baseline %s exists and is not a tools baseline; mcptrail replaces only a tools baseline (%v)", path, err)
	}
	return nil
}

// saveToolsBaseline writes b to path, saying on stderr what it pinned and
// whether it replaced an earlier baseline.
func saveToolsBaseline(ios *IOStreams, path string, b *rules.ToolBaseline) error {
	old, _ := readToolsBaselineFile(path)
	if err := writeOutput(ios, path, func(w io.Writer, _ string) error { return b.Write(w) }); err != nil {
		return err
	}
	replaced := ""
	if old != nil {
		replaced = fmt.Sprintf(", replacing its baseline of session %s (%d tools)", termtext.Escape(old.Session), len(old.Tools))
	}
	skills := ""
	if len(b.Skills) > 0 {
		skills = fmt.Sprintf(" and %d skills", len(b.Skills))
	}
	fmt.Fprintf(ios.ErrOut, "mcptrail: pinned %d tools%s of session %s in %s%s\n", len(b.Tools), skills, termtext.Escape(b.Session), termtext.Escape(path), replaced)
	return nil
}

// readToolsBaselineFile reads a tools baseline; a missing file is an error
// of kind not found, an unreadable or malformed one of kind bad input.
func readToolsBaselineFile(path string) (*rules.ToolBaseline, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, notFoundf("no tools baseline file %s", path)
	}
	if err != nil {
		return nil, badInput(fmt.Errorf("opening tools baseline %s: %w", path, reason(err)))
	}
	defer f.Close()
	b, err := rules.ReadToolBaseline(f)
	if err != nil {
		return nil, badInput(fmt.Errorf("reading %s: %w", path, err))
	}
	return b, nil
}

// reportUnlisted warns on w that check --tools-baseline had nothing to
// compare in a session that never listed its tools.
func reportUnlisted(w io.Writer, res *check.Result) {
	if res.Unlisted {
		fmt.Fprintf(w, "mcptrail: %s: session %s never got a tools/list result; nothing was compared with --tools-baseline\n",
			termtext.Escape(res.Path), termtext.Escape(res.SessionID))
	}
}
