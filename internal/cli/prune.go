package cli

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcptrail/mcptrail/internal/capture"
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

// prunable is a capture file prune selected.
type prunable struct {
	path     string
	sessions int
	size     int64
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
	files := pruneSelect(all, f.label, io.Now().Add(-age), age > 0 || f.olderThan != "", f.keep, keepSet)
	var total int64
	var sessions int
	for _, p := range files {
		total += p.size
		sessions += p.sessions
	}
	if len(files) == 0 {
		fmt.Fprintln(io.ErrOut, "nothing to prune")
		return nil
	}
	if !f.yes {
		fmt.Fprintf(io.Out, "would delete %d captures (%d sessions, %d bytes):\n", len(files), sessions, total)
		for _, p := range files {
			fmt.Fprintf(io.Out, "  %s\n", termtext.Escape(p.path))
		}
		fmt.Fprintln(io.ErrOut, "mcptrail: a dry run: run again with --yes to delete them")
		return nil
	}
	return prune(io, ix, files)
}

// prune deletes files and drops them from the index.
func prune(io *IOStreams, ix *index.Index, files []prunable) error {
	var gone []string
	var errs []error
	var sessions int
	var total int64
	for _, p := range files {
		if err := os.Remove(p.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("deleting %s: %w", p.path, reason(err)))
			continue
		}
		gone = append(gone, p.path)
		sessions += p.sessions
		total += p.size
	}
	if err := ix.Remove(gone); err != nil {
		errs = append(errs, err)
	}
	fmt.Fprintf(io.Out, "deleted %d captures (%d sessions, %d bytes)\n", len(gone), sessions, total)
	return errors.Join(errs...)
}

// pruneSelect returns the files whose every session is selected: of the
// label's sessions (all when label is ""), those that started before
// cutoff (when byAge) and are not among the newest keep (when keepSet).
// all is newest first. A file a tap still writes is never selected.
func pruneSelect(all []index.Session, label string, cutoff time.Time, byAge bool, keep int, keepSet bool) []prunable {
	type file struct {
		prunable
		keep bool
	}
	byPath := map[string]*file{}
	var order []string
	kept := 0
	for i := range all {
		s := &all[i]
		fl := byPath[s.Path]
		if fl == nil {
			fl = &file{prunable: prunable{path: s.Path}}
			byPath[s.Path] = fl
			order = append(order, s.Path)
		}
		fl.sessions++
		selected := label == "" || s.Label == label
		if selected && keepSet && kept < keep {
			kept++
			selected = false
		}
		if selected && byAge && !s.Start.Before(cutoff) {
			selected = false
		}
		if !selected {
			fl.keep = true
		}
	}
	var out []prunable
	for _, p := range order {
		fl := byPath[p]
		if fl.keep {
			continue
		}
		if alive, known := capture.WriterAlive(p); known && alive {
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		fl.size = fi.Size()
		out = append(out, fl.prunable)
	}
	return out
}
