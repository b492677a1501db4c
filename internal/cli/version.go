package cli

import (
	"cmp"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/spf13/cobra"

	"github.com/mcptrail/mcptrail/internal/buildinfo"
)

// buildFacts is what `mcptrail version` reports; its JSON form is the
// --json output. Empty fields are unknown: a binary built with
// -buildvcs=false has no vcs facts, and one built outside a module none at
// all.
type buildFacts struct {
	// Version is the stamped version (a release), else the module's
	// version without its "v" (go install …@version), else devVersion.
	Version string `json:"version"`
	// Commit and Date are the stamped ones, else the vcs revision and
	// time the toolchain recorded.
	Commit   string `json:"commit,omitempty"`
	Date     string `json:"date,omitempty"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
	Module   string `json:"module,omitempty"`
	// ModuleVersion is "(devel)" for a build from a checkout.
	ModuleVersion string `json:"module_version,omitempty"`
	// Modified is "true" when the checkout had uncommitted changes, ""
	// when unknown.
	Modified string `json:"vcs_modified,omitempty"`
}

// readBuildFacts gathers what the linker stamped (internal/buildinfo) and
// what the Go toolchain recorded in the binary.
func readBuildFacts() buildFacts {
	v, c, d := buildinfo.Stamped()
	info, _ := debug.ReadBuildInfo()
	return buildFactsOf(v, c, d, info)
}

// buildFactsOf combines the stamped facts with the toolchain's record
// (nil: none), the stamped ones first.
func buildFactsOf(version, commit, date string, info *debug.BuildInfo) buildFacts {
	b := buildFacts{Version: version, Commit: commit, Date: date, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if info != nil {
		if info.GoVersion != "" {
			b.Go = info.GoVersion
		}
		b.Module, b.ModuleVersion = info.Main.Path, info.Main.Version
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Commit = cmp.Or(b.Commit, s.Value)
			case "vcs.time":
				b.Date = cmp.Or(b.Date, s.Value)
			case "vcs.modified":
				b.Modified = s.Value
			}
		}
	}
	if b.Version == "" && b.ModuleVersion != "" && b.ModuleVersion != "(devel)" && !strings.HasSuffix(b.ModuleVersion, "+dirty") {
		b.Version = strings.TrimPrefix(b.ModuleVersion, "v")
	}
	b.Version = cmp.Or(b.Version, devVersion)
	return b
}

// text is the facts one a line, the unknown ones left out.
func (b buildFacts) text() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "mcptrail %s\n", b.Version)
	line := func(key, value string) {
		if value != "" {
			fmt.Fprintf(&sb, "%s: %s\n", key, value)
		}
	}
	line("commit", b.Commit)
	line("date", b.Date)
	line("go", b.Go)
	line("platform", b.Platform)
	line("module", strings.TrimSpace(b.Module+" "+b.ModuleVersion))
	line("modified", b.Modified)
	return sb.String()
}

// setVersion gives root a --version flag printing the same text as
// `mcptrail version`.
func setVersion(root *cobra.Command) {
	root.Version = Version
	// The template is literal text: braces in it must not be actions.
	t := strings.ReplaceAll(readBuildFacts().text(), "{{", `{{"{{"}}`)
	root.SetVersionTemplate(t)
}

func newVersionCmd(fac *Factory) *cobra.Command {
	io := fac.IOStreams
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version [--json]",
		Short: "Print the version and build information",
		Long: `Version prints mcptrail's version, the commit it was built from and the
build date, then what the Go toolchain recorded, one fact a line: the Go
version, the platform, the module version and whether the checkout was
modified. A release build has its version, commit and date stamped; a
go install build reports its module version and, when the toolchain recorded
them, the source revision and its time. mcptrail --version prints the same.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("version takes no arguments, got %q", args)
			}
			return nil
		},
		RunE: func(*cobra.Command, []string) error {
			b := readBuildFacts()
			if !asJSON {
				if _, err := io.Out.Write([]byte(b.text())); err != nil {
					return fmt.Errorf("writing version: %w", err)
				}
				return nil
			}
			out, err := json.Marshal(b)
			if err != nil {
				return fmt.Errorf("encoding version: %w", err)
			}
			return writeJSON(io.Out, append(out, '\n'))
		},
	}
	addOutputFlags(cmd, fac.IOStreams, outputSpec{Formats: textJSON(), JSON: &asJSON, JSONHelp: "write a JSON object instead of lines"})
	return cmd
}
