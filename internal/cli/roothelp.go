package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// rootLong is what mcptrail --help says the tool is, before the usage
// line and one example; the proxy's own text is its help topic
// (mcptrail help proxy).
const rootLong = `mcptrail is a transparent MCP proxy with a lossless capture: put it in front of
a server's command, then read what client and server said in a terminal UI, in
the ledger of what the server asked the user, in reports, or check it in CI.`

// rootExample is the one example of mcptrail --help.
const rootExample = `  mcptrail --label github -- docker run -i --rm ghcr.io/github/github-mcp-server`

// commandGroup is one group of the root help and its commands, in order.
type commandGroup struct {
	group    cobra.Group
	commands []string
}

// commandGroups are the root help's groups, in order.
func commandGroups() []commandGroup {
	return []commandGroup{
		{cobra.Group{ID: "capture", Title: "Capture:"}, []string{"proxy", "http", "wrap", "unwrap"}},
		{cobra.Group{ID: "read", Title: "Read:"}, []string{"open", "sessions", "ledger", "export", "stats", "tools", "auth", "mcp"}},
		{cobra.Group{ID: "ci", Title: "CI:"}, []string{"check", "diff", "rules"}},
		{cobra.Group{ID: "test", Title: "Test:"}, []string{"demo", "mock", "replay"}},
		{cobra.Group{ID: "config", Title: "Config:"}, []string{"ca", "prune", "version", "completion"}},
	}
}

// groupCommands puts root's commands into commandGroups; a command in no
// group is listed under "Additional Commands", as cobra does.
func groupCommands(root *cobra.Command) {
	at := map[string]string{}
	for _, g := range commandGroups() {
		root.AddGroup(&g.group)
		for _, name := range g.commands {
			at[name] = g.group.ID
		}
	}
	root.SetHelpCommandGroupID("config")
	root.SetCompletionCommandGroupID(at["completion"])
	for _, c := range root.Commands() {
		c.GroupID = at[c.Name()]
	}
}

// proxyTopic moves the proxy's long help and its flags out of the root's
// help into the topic `mcptrail help proxy`: the root command stays the
// proxy (mcptrail [flags] -- SERVER works as it did), its flags are only
// hidden from mcptrail --help.
func proxyTopic(root *cobra.Command) *cobra.Command {
	long, examples := root.Long, root.Example
	var flags []*pflag.Flag
	root.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			f.Hidden = true
			flags = append(flags, f)
		}
	})
	root.Long, root.Example = rootLong, rootExample
	topic := &cobra.Command{
		Use:   "proxy",
		Short: "The stdio proxy: wrapping a server, its flags, signals and exit status",
	}
	topic.SetHelpFunc(func(c *cobra.Command, _ []string) {
		w := c.OutOrStdout()
		fmt.Fprintf(w, "%s\n\nUsage:\n  %s\n\nExamples:\n%s\n\nFlags:\n", long, root.Use, examples)
		fs := pflag.NewFlagSet("proxy", pflag.ContinueOnError)
		for _, f := range flags {
			shown := *f
			shown.Hidden = false
			fs.AddFlag(&shown)
		}
		fmt.Fprint(w, fs.FlagUsages())
		fmt.Fprintf(w, "\nGlobal Flags:\n%s", root.PersistentFlags().FlagUsages())
	})
	return topic
}

// rootHelp replaces the help of root alone (every other command keeps
// cobra's): what mcptrail is, the proxy's usage line and one example, the
// commands by group (the proxy topic first), the flags left on the root.
func rootHelp(root *cobra.Command) {
	def := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		if c != root {
			def(c, args)
			return
		}
		writeRootHelp(c.OutOrStdout(), root)
	})
}

func writeRootHelp(w io.Writer, root *cobra.Command) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\nUsage:\n  %s   wrap a stdio server\n  %s\n\nExample:\n%s\n",
		root.Long, "mcptrail [flags] -- SERVER-COMMAND [ARGS...]", "mcptrail COMMAND [flags]", root.Example)
	byName := map[string]*cobra.Command{}
	pad := 0
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() || c.IsAdditionalHelpTopicCommand() {
			byName[c.Name()] = c
			pad = max(pad, len(c.Name()))
		}
	}
	for _, g := range commandGroups() {
		fmt.Fprintf(&b, "\n%s\n", g.group.Title)
		for _, name := range g.commands {
			if c := byName[name]; c != nil {
				fmt.Fprintf(&b, "  %-*s  %s\n", pad, name, c.Short)
				delete(byName, name)
			}
		}
	}
	var rest []string
	for _, c := range root.Commands() {
		if byName[c.Name()] != nil && c.Name() != "help" {
			rest = append(rest, fmt.Sprintf("  %-*s  %s\n", pad, c.Name(), c.Short))
		}
	}
	if len(rest) > 0 {
		fmt.Fprintf(&b, "\nAdditional Commands:\n%s", strings.Join(rest, ""))
	}
	fmt.Fprintf(&b, "\nFlags:\n%s", root.LocalFlags().FlagUsages())
	b.WriteString("\nUse \"mcptrail help proxy\" for the proxy's flags; \"mcptrail COMMAND --help\" for a command's.\n")
	fmt.Fprint(w, b.String())
}
