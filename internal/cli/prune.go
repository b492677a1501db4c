package cli

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcptrail/mcptrail/internal/index"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// pruneFlags are prune's flags.
type pruneFlags struct {
	olderThan string
	keep      int
	label     string
	yes       bool
	dryRun    bool
}

func newPruneCmd(fac *Factory) *cobra.Command {
	var f pruneFlags
	cmd := &cobra.Command{
		Use:   "prune (--older-than AGE | --keep N) [--label L] [--yes]",
		Short: "Delete old captures from the sessions folder (a dry run until --yes)",
		Long: `Prune deletes captures from the state directory's sessions folder and drops
them from the session index. --older-than AGE (30d, 2w, 12h) selects the
sessions that started longer ago than AGE; --keep N keeps the newest N
sessions (with --label, the newest N of that label) and selects the others;
given both, a session goes when it is older than AGE and not among the
newest N. --label limits it all to the sessions with that label.

A capture file goes only when every session it holds (--append) is selected,
and never while a tap is still writing it. Without --yes nothing is deleted:
prune lists what it would delete (--dry-run, the default).`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("prune takes no arguments, got %q", args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if f.olderThan == "" && !cmd.Flags().Changed("keep") {
				return usagef("prune needs --older-than AGE or --keep N (or both)")
			}
			if f.keep < 0 {
				return usagef("--keep must not be negative, got %d", f.keep)
			}
			if f.yes && cmd.Flags().Changed("dry-run") && f.dryRun {
				return usagef("--yes and --dry-run cannot be used together")
			}
			var age time.Duration
			if f.olderThan != "" {
				var err error
				if age, err = index.ParseAge(f.olderThan); err != nil {
					return usagef("--older-than: %v", err)
				}
			}
			return runPrune(fac, &f, age, cmd.Flags().Changed("keep"))
		},
	}
	cmd.Flags().StringVar(&f.olderThan, "older-than", "", "select the sessions older than `AGE` (30d, 2w, 12h)")
	cmd.Flags().IntVar(&f.keep, "keep", 0, "keep the newest `N` sessions")
	cmd.Flags().StringVar(&f.label, "label", "", "only the sessions with this label")
	cmd.Flags().BoolVar(&f.yes, "yes", false, "delete (without it, prune only lists)")
	cmd.Flags().BoolVar(&f.dryRun, "dry-run", true, "list what would be deleted (the default until --yes)")
	return cmd
}

func runPrune(fac *Factory, f *pruneFlags, age time.Duration, keepSet bool) error {
	io := fac.IOStreams
	ix, err := openIndex(fac) // sessions_index.go
	if err != nil {
		return err
	}
	defer ix.Close()
	all, err := ix.Sessions(index.Filter{})
	if err != nil {
		return err
	}
	files := (&index.PrunePolicy{Label: f.label, Before: io.Now().Add(-age), ByAge: age > 0 || f.olderThan != "", Keep: f.keep, KeepSet: keepSet}).Select(all)
	var total int64
	var sessions int
	for _, p := range files {
		total += p.Size
		sessions += p.Sessions
	}
	if len(files) == 0 {
		fmt.Fprintln(io.ErrOut, "nothing to prune")
		return nil
	}
	if !f.yes {
		fmt.Fprintf(io.Out, "would delete %d captures (%d sessions, %d bytes):\n", len(files), sessions, total)
		for _, p := range files {
			fmt.Fprintf(io.Out, "  %s\n", termtext.Escape(p.Path))
		}
		fmt.Fprintln(io.ErrOut, "mcptrail: a dry run: run again with --yes to delete them")
		return nil
	}
	return prune(io, ix, files)
}

// prune deletes files and drops them from the index.
func prune(io *IOStreams, ix *index.Index, files []index.Prunable) error {
	var gone []string
	var errs []error
	var sessions int
	var total int64
	for _, p := range files {
		if err := os.Remove(p.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("deleting %s: %w", p.Path, reason(err)))
			continue
		}
		gone = append(gone, p.Path)
		sessions += p.Sessions
		total += p.Size
	}
	if err := ix.Remove(gone); err != nil {
		errs = append(errs, err)
	}
	fmt.Fprintf(io.Out, "deleted %d captures (%d sessions, %d bytes)\n", len(gone), sessions, total)
	return errors.Join(errs...)
}
