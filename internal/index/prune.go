package index

import (
	"os"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// PrunePolicy says which capture files `mcptrail prune` deletes.
type PrunePolicy struct {
	// Label limits the selection to the sessions with this label; ""
	// selects among all sessions.
	Label string
	// Before is the cutoff of ByAge: a session that started at or after
	// it is kept.
	Before time.Time
	// ByAge reports whether sessions are selected by age (Before); false
	// selects them whatever their age.
	ByAge bool
	// Keep is how many of the newest selected sessions are kept, when
	// KeepSet.
	Keep int
	// KeepSet reports whether Keep applies (--keep was given; 0 keeps
	// none).
	KeepSet bool
}

// Prunable is a capture file a PrunePolicy selected.
type Prunable struct {
	// Path is the capture file.
	Path string
	// Sessions is how many sessions it holds.
	Sessions int
	// Size is its size in bytes when it was selected.
	Size int64
}

// Select returns the files whose every session p selects: of the label's
// sessions (all when Label is ""), those that started before Before (when
// ByAge) and are not among the newest Keep (when KeepSet). all is newest
// first, as Index.Sessions returns them. A file a tap still writes, or
// one that is gone, is never selected.
func (p *PrunePolicy) Select(all []Session) []Prunable {
	type file struct {
		Prunable
		keep bool
	}
	byPath := map[string]*file{}
	var order []string
	kept := 0
	for i := range all {
		s := &all[i]
		fl := byPath[s.Path]
		if fl == nil {
			fl = &file{Prunable: Prunable{Path: s.Path}}
			byPath[s.Path] = fl
			order = append(order, s.Path)
		}
		fl.Sessions++
		selected := p.Label == "" || s.Label == p.Label
		if selected && p.KeepSet && kept < p.Keep {
			kept++
			selected = false
		}
		if selected && p.ByAge && !s.Start.Before(p.Before) {
			selected = false
		}
		if !selected {
			fl.keep = true
		}
	}
	var out []Prunable
	for _, path := range order {
		fl := byPath[path]
		if fl.keep {
			continue
		}
		if alive, known := capture.WriterAlive(path); known && alive {
			continue
		}
		fi, err := os.Stat(path)
		if err != nil {
			continue
		}
		fl.Size = fi.Size()
		out = append(out, fl.Prunable)
	}
	return out
}
