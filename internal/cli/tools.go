package cli

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/spf13/cobra"

	"github.com/mcptrail/mcptrail/internal/check"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtable"
	"github.com/mcptrail/mcptrail/internal/termtext"
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
	cmd.Flags().BoolVar(&opts.asJSON, "json", false, "write the catalog as JSON instead of a table")
	cmd.Flags().StringVar(&opts.session, "session", "", "read the session `ID` (or unique id prefix) of a file that holds several")
	cmd.Flags().StringVar(&opts.save, "save-baseline", "", "pin the catalog to the tools baseline `FILE` (for check --tools-baseline)")
	addWideFlag(cmd.Flags(), &opts.wide)
	return cmd
}

// sessionTools is the tool catalog of one session.
type sessionTools struct {
	id, name string // the session id; the capture, for messages
	tools    []store.Definition
	listed   bool // the session got a tools/list result
	complete bool
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
	if st.listed && !st.complete {
		fmt.Fprintf(ios.ErrOut, "mcptrail: the latest tools/list of %s was not read from its first page to its last; tools may be missing\n",
			termtext.Escape(st.name))
	}
	if opts.save != "" {
		if !st.listed {
			return notFoundf("nothing to pin: session %s never got a tools/list result", st.id)
		}
		if err := saveToolsBaseline(ios, opts.save, rules.NewToolBaseline(st.id, st.tools)); err != nil {
			return err
		}
	}
	if opts.asJSON {
		return writeToolsJSON(ios, &st)
	}
	if !st.listed {
		fmt.Fprintf(ios.ErrOut, "no tools/list result in %s\n", termtext.Escape(st.name))
		return nil
	}
	return writeToolsTable(ios, st.tools, opts.wide)
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
	st := sessionTools{id: snap.Session.ID, name: ci.name}
	if l := rules.ToolList(snap.Catalog); l != nil {
		st.tools, st.listed, st.complete = l.Definitions, true, l.Complete
	}
	return st, nil
}

// writeToolsTable writes one row per tool.
func writeToolsTable(ios *IOStreams, tools []store.Definition, wide bool) error {
	t := termtable.Table{Color: ios.colorOn(), Columns: []termtable.Column{
		{Header: "NAME", Cut: true, Min: 12},
		{Header: "TITLE", Cut: true, Drop: 2},
		{Header: "ANNOTATIONS", Cut: true, Drop: 1},
		{Header: "ARGUMENTS", Cut: true, Min: 12},
		{Header: "HASH", Drop: 3},
	}}
	for i := range tools {
		d := &tools[i]
		t.AddText(d.Name, d.Title, annotationsText(d.Annotations), argumentsText(d.InputSchema), shortHash(d.Hash))
	}
	if err := t.Render(ios.Out, ios.tableWidth(wide)); err != nil {
		return fmt.Errorf("writing tools: %w", err)
	}
	return nil
}

// argumentsText renders an inputSchema's arguments: "q*:string limit:integer".
func argumentsText(schema jsontext.Value) string {
	var parts []string
	for _, a := range rules.Arguments(schema) {
		s := a.Name
		if a.Required {
			s += "*"
		}
		if a.Type != "" {
			s += ":" + a.Type
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// annotationsText renders annotations: a true hint by its name without
// "Hint", others as name=value ("readOnly destructive=false").
func annotationsText(raw jsontext.Value) string {
	m := mcp.LastMembers(raw) // a repeated hint counts as its last, as clients read it
	if m == nil {
		return ""
	}
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(m)) {
		short := strings.TrimSuffix(name, "Hint")
		if string(m[name]) == "true" && short != name {
			parts = append(parts, short)
			continue
		}
		parts = append(parts, short+"="+string(m[name]))
	}
	return strings.Join(parts, " ")
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
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
	fmt.Fprintf(ios.ErrOut, "mcptrail: pinned %d tools of session %s in %s%s\n", len(b.Tools), termtext.Escape(b.Session), termtext.Escape(path), replaced)
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

// toolsJSON is what tools --json writes (docs/tools.md).
type toolsJSON struct {
	Session string `json:"session"`
	// Listed reports whether the session got a tools/list result;
	// Complete whether its latest listing was read from first to last
	// page.
	Listed   bool       `json:"listed"`
	Complete bool       `json:"complete"`
	Tools    []toolJSON `json:"tools"`
}

type toolJSON struct {
	Name         string           `json:"name"`
	Title        string           `json:"title,omitempty"`
	Description  string           `json:"description,omitempty"`
	Annotations  jsontext.Value   `json:"annotations,omitempty"`
	Arguments    []rules.Argument `json:"arguments"`
	InputSchema  jsontext.Value   `json:"inputSchema,omitempty"`
	OutputSchema jsontext.Value   `json:"outputSchema,omitempty"`
	Hash         string           `json:"hash"`
	Seq          uint64           `json:"seq"`
	Line         int              `json:"line,omitempty"`
}

// writeToolsJSON writes the catalog of st as one JSON object.
func writeToolsJSON(ios *IOStreams, st *sessionTools) error {
	out := toolsJSON{Session: st.id, Listed: st.listed, Complete: st.complete, Tools: []toolJSON{}}
	for i := range st.tools {
		d := &st.tools[i]
		args := rules.Arguments(d.InputSchema)
		if args == nil {
			args = []rules.Argument{}
		}
		out.Tools = append(out.Tools, toolJSON{Name: d.Name, Title: d.Title, Description: d.Description, Annotations: d.Annotations,
			Arguments: args, InputSchema: d.InputSchema, OutputSchema: d.OutputSchema, Hash: d.Hash, Seq: d.Seq, Line: d.Line})
	}
	b, err := json.Marshal(&out, jsontext.WithIndent("  "))
	if err != nil {
		return fmt.Errorf("writing tools: %w", err)
	}
	if err := writeJSON(ios.Out, append(b, '\n')); err != nil {
		return fmt.Errorf("writing tools: %w", err)
	}
	return nil
}

// reportUnlisted warns on w that check --tools-baseline had nothing to
// compare in a session that never listed its tools.
func reportUnlisted(w io.Writer, res *check.Result) {
	if res.Unlisted {
		fmt.Fprintf(w, "mcptrail: %s: session %s never got a tools/list result; nothing was compared with --tools-baseline\n",
			termtext.Escape(res.Path), termtext.Escape(res.SessionID))
	}
}
