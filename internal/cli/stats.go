package cli

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/spf13/cobra"

	"github.com/mcptrail/mcptrail/internal/index"
	"github.com/mcptrail/mcptrail/internal/termtable"
	"github.com/mcptrail/mcptrail/internal/termtext"
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
            its final answer, as in the summary)
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
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !slices.Contains(index.Bys(), by) {
				return usagef("--by must be one of %s, got %q", strings.Join(index.Bys(), ", "), by)
			}
			if !slices.Contains(statsFormats(), format) {
				return usagef("--format must be one of %s, got %q", strings.Join(statsFormats(), ", "), format)
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
	cmd.Flags().StringVar(&format, "format", "text", "output format: "+strings.Join(statsFormats(), ", "))
	addWideFlag(cmd.Flags(), &wide)
	return cmd
}

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
		return writeStatsJSON(io.Out, t)
	case "csv":
		return writeStatsCSV(io.Out, t)
	case "markdown":
		return writeStatsMarkdown(io.Out, t)
	}
	if len(t.Rows) == 0 {
		fmt.Fprintln(io.ErrOut, "no sessions match")
		return nil
	}
	tt := &termtable.Table{Color: io.colorOn()}
	for i, c := range t.Columns {
		col := termtable.Column{Header: strings.ToUpper(c.Name)}
		if c.Kind != index.Text {
			col.Align = termtable.Right
		} else if i > 0 {
			col.Cut, col.Min = true, 12
		}
		tt.Columns = append(tt.Columns, col)
	}
	for _, r := range t.Rows {
		cells := make([]termtable.Cell, len(r))
		for i, v := range r {
			cells[i] = termtable.Cell{Text: statsCell(t.Columns[i].Kind, v, true)}
		}
		tt.Add(cells...)
	}
	return tt.Render(io.Out, io.tableWidth(wide))
}

// statsCell spells one cell: rates as percentages when human, else as
// fractions; a missing value as "-" when human, else "".
func statsCell(kind string, v any, human bool) string {
	switch x := v.(type) {
	case nil:
		if human {
			return "-"
		}
		return ""
	case string:
		return x
	case int:
		return strconv.Itoa(x)
	case float64:
		switch {
		case human && (kind == index.Rate || kind == index.Share):
			return strconv.FormatFloat(100*x, 'f', 1, 64) + "%"
		case human:
			return strconv.FormatFloat(x, 'f', 1, 64)
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// writeStatsJSON writes the rows as a JSON array of objects keyed by the
// column names, in column order.
func writeStatsJSON(w io.Writer, t *index.Table) error {
	var b []byte
	b = append(b, '[')
	for i, r := range t.Rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		for j, v := range r {
			if j > 0 {
				b = append(b, ',')
			}
			k, err := json.Marshal(t.Columns[j].Name)
			if err != nil {
				return err
			}
			val, err := json.Marshal(v, jsontext.AllowInvalidUTF8(true))
			if err != nil {
				return fmt.Errorf("encoding stats: %w", err)
			}
			b = append(append(append(b, k...), ':'), val...)
		}
		b = append(b, '}')
	}
	return writeJSON(w, append(b, ']', '\n'))
}

// writeStatsCSV writes the table as CSV, every cell that is not a number
// neutralised by csvText.
func writeStatsCSV(w io.Writer, t *index.Table) error {
	cw := csv.NewWriter(w)
	head := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		head[i] = csvText(c.Name)
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, r := range t.Rows {
		rec := make([]string, len(r))
		for i, v := range r {
			rec[i] = statsCell(t.Columns[i].Kind, v, false)
			switch v.(type) {
			case int, float64:
			default:
				rec[i] = csvText(rec[i])
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvText keeps a text cell from being read as a formula by a spreadsheet
// (OWASP, CSV injection): one that starts with =, +, -, @, a tab or a
// carriage return gets a leading '. Numbers are written as they are, so a
// negative one stays a number: strconv spells no formula.
func csvText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func writeStatsMarkdown(w io.Writer, t *index.Table) error {
	var sb strings.Builder
	row := func(cells []string) {
		sb.WriteString("|")
		for _, c := range cells {
			sb.WriteString(" " + termtext.Escape(strings.ReplaceAll(strings.ReplaceAll(c, "|", `\|`), "\n", " ")) + " |")
		}
		sb.WriteString("\n")
	}
	head, rule := make([]string, len(t.Columns)), make([]string, len(t.Columns))
	for i, c := range t.Columns {
		head[i], rule[i] = c.Name, "---"
		if c.Kind != index.Text {
			rule[i] = "---:"
		}
	}
	row(head)
	row(rule)
	for _, r := range t.Rows {
		cells := make([]string, len(r))
		for i, v := range r {
			cells[i] = statsCell(t.Columns[i].Kind, v, true)
		}
		row(cells)
	}
	_, err := io.WriteString(w, sb.String())
	return err
}
