package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcptrail/mcptrail/internal/index"
)

// statsFormats lists the --format values of stats, the default first.
func statsFormats() []string { return []string{"text", "json", "csv", "markdown"} }

func newStatsCmd(fac *Factory) *cobra.Command {
	io := fac.IOStreams
	var q sessionQuery
	var by, format string
	var wide bool
	cmd := &cobra.Command{
		Use:   "stats [--since 7d] [--label L] [--by tool|question|client|server|day] [--format text|json|csv|markdown]",
		Short: "Aggregate the captured sessions: calls, errors, latency, how users answer",
		Long: `Stats aggregates the sessions of the session index (see sessions) that the
filters select, grouped by --by:

  tool      calls, errors, error rate, p50 and p95 latency (ms) per method
            and per tool (an MRTR operation once, from its first request to
            its final answer, as in the summary), then kind "server": the
            server's requests to the client (elicitation/create, sampling),
            which are not calls, per method, timed until the client answered
  question  per elicitation question (server, tool, inputRequests key or
            else message): times asked, accept / decline / cancel / pending
            rates, median and p95 time to answer (ms), and wait_share, the
            share of the operations' time spent waiting on the human (MRTR:
            the operation's wait over its duration; legacy: the time to
            answer over the interrupted call's duration)
  client    per client name and version: the elicitation modes it declared,
            its sessions, and how its users answered
  server    per server (serverInfo name, else the session label): sessions,
            calls, errors, latency, questions and answers
  day       the same per UTC day of the session's start

Percentiles are nearest-rank over the answered calls (or answers); a rate
with nothing to divide is shown as "-" (null in JSON, empty in CSV). Rates
are fractions in JSON and CSV, percentages in text and markdown. In CSV, a
text cell that starts with =, +, -, @, a tab or a carriage return gets a
leading ' so that no spreadsheet runs it as a formula; numbers stay
numbers.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("stats takes no arguments, got %q", args)
			}
			return nil
		},
		RunE: func(_ *cobra.Command, _ []string) error {
			if !slices.Contains(index.Bys(), by) {
				return usagef("--by must be one of %s, got %q", strings.Join(index.Bys(), ", "), by)
			}
			f, err := q.filter(io.Now())
			if err != nil {
				return err
			}
			return runStats(fac, f, by, format, wide)
		},
	}
	q.add(cmd.Flags())
	cmd.Flags().StringVar(&by, "by", index.ByTool, "group by "+strings.Join(index.Bys(), ", "))
	addWideFlag(cmd.Flags(), &wide)
	addOutputFlags(cmd, io, outputSpec{Formats: statsFormats(), Format: &format, JSONHelp: "write the statistics as JSON"})
	return cmd
}

// runStats prints the statistics of the sessions f selects, grouped by
// by, in format.
func runStats(fac *Factory, f index.Filter, by, format string, wide bool) error {
	io := fac.IOStreams
	ix, err := openIndex(fac) // sessions_index.go
	if err != nil {
		return err
	}
	defer ix.Close()
	t, err := ix.Stats(f, by)
	if err != nil {
		return err
	}
	switch format {
	case "json":
		return t.WriteJSON(io.Out)
	case "csv":
		return t.WriteCSV(io.Out)
	case "markdown":
		return t.WriteMarkdown(io.Out)
	}
	if len(t.Rows) == 0 {
		fmt.Fprintln(io.ErrOut, "no sessions match")
		return nil
	}
	return t.WriteText(io.Out, io.colorOn(), io.tableWidth(wide))
}
