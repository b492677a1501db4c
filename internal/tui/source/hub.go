package source

import (
	"cmp"
	"context"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// backlogReaders is how many capture files the hub reads at once until
// each has caught up with its writer: one store each, so many big
// captures are never held in memory together.
const backlogReaders = 2

// Hub follows the state directory's sessions.
type Hub struct {
	ch     chan []ui.SessionInfo
	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once
}

// Watch lists the sessions of dir (capture.SessionsDir of the state
// directory) and keeps the list up to date: Updates delivers a newer list,
// newest first (by Start), within a second of a change.
//
// Every session of every capture file is a row (a file may hold several);
// a file that is not a capture, or cannot be read, is a row with Err set
// and the watch goes on. Each file is read once, by at most
// backlogReaders goroutines at a time newest file first, and followed
// while its writer is alive; a file is read again only when it changes
// after that. Only the rows are kept, not the sessions.
func Watch(ctx context.Context, dir string, opts *Options) *Hub {
	if opts == nil {
		opts = &Options{}
	}
	ctx, cancel := context.WithCancel(ctx)
	h := &Hub{ch: make(chan []ui.SessionInfo, 1), cancel: cancel, done: make(chan struct{})}
	w := &watch{
		h: h, dir: dir, opts: opts,
		files:  map[string]*fileReader{},
		slot:   make(chan struct{}, backlogReaders),
		notify: make(chan struct{}, 1),
		vers:   map[string]uint64{},
	}
	go w.run(ctx)
	return h
}

// Updates delivers the newer session lists (a reader that falls behind
// gets the latest); it is closed by Close.
func (h *Hub) Updates() <-chan []ui.SessionInfo { return h.ch }

// Close stops watching and waits for every goroutine of the Hub to
// return. It is idempotent.
func (h *Hub) Close() {
	h.once.Do(func() {
		h.cancel()
		<-h.done
	})
}

// watch is the Hub's goroutine state.
type watch struct {
	h      *Hub
	dir    string
	opts   *Options
	files  map[string]*fileReader
	slot   chan struct{}
	notify chan struct{}
	wg     sync.WaitGroup
	// vers is the version of each file's rows the last list held.
	vers map[string]uint64
	sent bool
}

func (w *watch) run(ctx context.Context) {
	defer func() {
		w.wg.Wait()
		close(w.h.ch)
		close(w.h.done)
	}()
	poll := DefaultPoll
	if w.opts.Poll > 0 {
		poll = w.opts.Poll
	}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	w.scan(ctx)
	w.publish()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			w.scan(ctx)
			w.publish()
		case <-w.notify:
			w.publish()
		}
	}
}

// scan lists the directory and starts a reader for each file that is new
// or changed since its reader finished.
func (w *watch) scan(ctx context.Context) {
	paths, err := capture.SessionFiles(w.dir)
	if err != nil {
		return // a directory that cannot be listed now may be later
	}
	seen := make(map[string]bool, len(paths))
	for _, p := range paths {
		seen[p] = true
		old := w.files[p]
		if old != nil {
			fi, err := os.Stat(p)
			if err != nil || !old.stale(fi) {
				continue
			}
		}
		var prev []ui.SessionInfo
		if old != nil {
			prev, _ = old.snapshot()
		}
		r := newFileReader(p, w.opts.Rules, w.poke, prev)
		w.files[p] = r
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			r.run(ctx, w.slot)
		}()
	}
	for p := range w.files {
		if !seen[p] {
			delete(w.files, p)
		}
	}
}

// poke tells the hub's goroutine that a row changed.
func (w *watch) poke() {
	select {
	case w.notify <- struct{}{}:
	default:
	}
}

// publish sends the list when a row changed since the last one.
func (w *watch) publish() {
	changed := !w.sent || len(w.vers) != len(w.files)
	var rows []ui.SessionInfo
	vers := make(map[string]uint64, len(w.files))
	for p, r := range w.files {
		rs, v := r.snapshot()
		vers[p] = v
		if old, ok := w.vers[p]; !ok || old != v {
			changed = true
		}
		rows = append(rows, rs...)
	}
	if !changed {
		return
	}
	w.vers, w.sent = vers, true
	slices.SortFunc(rows, func(a, b ui.SessionInfo) int {
		if c := b.Start.Compare(a.Start); c != 0 {
			return c
		}
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.ID, b.ID))
	})
	select {
	case <-w.h.ch:
	default:
	}
	w.h.ch <- rows
}
