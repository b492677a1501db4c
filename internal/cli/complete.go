package cli

import (
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/session"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// addCompletions teaches cobra's completion command (mcptrail completion
// bash|zsh|fish|powershell) what mcptrail's arguments are: session ids of
// the state directory for export, ledger, open and mock, export formats, rule
// ids and categories.
func addCompletions(root *cobra.Command, fac *Factory) {
	sessions := func(_ *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		// A path is an argument too: the shell completes files as well.
		return sessionCompletions(fac, prefix), cobra.ShellCompDirectiveDefault
	}
	sessionFlag := func(_ *cobra.Command, _ []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return sessionCompletions(fac, prefix), cobra.ShellCompDirectiveNoFileComp
	}
	for _, cmd := range root.Commands() {
		switch cmd.Name() {
		case "export", "ledger", "open", "mock":
			cmd.ValidArgsFunction = sessions
			_ = cmd.RegisterFlagCompletionFunc("session", sessionFlag)
		case "rules":
			cmd.ValidArgsFunction = ruleCompletions
			_ = cmd.RegisterFlagCompletionFunc("category", categoryCompletions)
		}
	}
}

// fixedCompletions completes from a fixed list.
func fixedCompletions(list []string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var out []cobra.Completion
		for _, s := range list {
			if strings.HasPrefix(s, prefix) {
				out = append(out, s)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// ruleCompletions offers the rule ids not already named, with their
// summaries.
func ruleCompletions(_ *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
	named := make(map[string]bool, len(args))
	for _, a := range args {
		named[a] = true
	}
	var out []cobra.Completion
	for _, r := range rules.Default().Rules() {
		if strings.HasPrefix(r.ID, prefix) && !named[r.ID] {
			out = append(out, cobra.CompletionWithDesc(r.ID, termtext.Escape(r.Summary)))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

func categoryCompletions(cmd *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var list []string
	for _, c := range finding.Categories() {
		list = append(list, string(c))
	}
	return fixedCompletions(list)(cmd, args, prefix)
}

// sessionCompletions lists the ids of the sessions in the state directory
// that start with prefix, newest file first, each described by its start
// time and label. A file that cannot be read is left out: completion
// never prints errors.
func sessionCompletions(fac *Factory, prefix string) []cobra.Completion {
	state, err := fac.StateDir()
	if err != nil {
		return nil
	}
	files, err := capture.SessionFiles(capture.SessionsDir(state))
	if err != nil {
		return nil
	}
	var out []cobra.Completion
	for _, path := range files {
		idx, _ := session.IndexFile(path) // partial on error
		for _, s := range idx {
			h := s.Header
			if h.SessionID == "" || !strings.HasPrefix(h.SessionID, prefix) {
				continue
			}
			desc := h.Time.UTC().Format(time.RFC3339) + " " + h.Label
			out = append(out, cobra.CompletionWithDesc(termtext.Escape(h.SessionID), termtext.Escape(desc)))
		}
	}
	return out
}
