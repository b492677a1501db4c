package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/spf13/cobra"
)

// buildFacts is what `mcptrail version` reports; its JSON form is the
// --json output. Empty fields are unknown: a binary built with
// -buildvcs=false has no vcs facts, and one built outside a module none at
// all.
type buildFacts struct {
	Version  string `json:"version"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
	Module   string `json:"module,omitempty"`
	// ModuleVersion is "(devel)" for a build from a checkout.
	ModuleVersion string `json:"module_version,omitempty"`
	Revision      string `json:"vcs_revision,omitempty"`
	Time          string `json:"vcs_time,omitempty"`
	// Modified is "true" when the checkout had uncommitted changes, ""
	// when unknown.
	Modified string `json:"vcs_modified,omitempty"`
}

// readBuildFacts gathers the version and what the Go toolchain recorded in
// the binary.
func readBuildFacts() buildFacts {
	b := buildFacts{Version: Version, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	if info.GoVersion != "" {
		b.Go = info.GoVersion
	}
	b.Module, b.ModuleVersion = info.Main.Path, info.Main.Version
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value
		}
	}
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
	line("go", b.Go)
	line("platform", b.Platform)
	line("module", strings.TrimSpace(b.Module+" "+b.ModuleVersion))
	line("revision", b.Revision)
	line("time", b.Time)
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

func newVersionCmd(io *IOStreams) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version [--json]",
		Short: "Print the version and build information",
		Long: `Version prints mcptrail's version and what the Go toolchain recorded when it
was built, one fact a line: the Go version, the platform, the module version,
and, when the build had them, the source revision, its time and whether the
checkout was modified. mcptrail --version prints the same.`,
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
	cmd.Flags().BoolVar(&asJSON, "json", false, "write a JSON object instead of lines")
	return cmd
}
