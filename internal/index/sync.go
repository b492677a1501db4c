package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// stamp is what tells that a file changed since it was indexed.
type stamp struct {
	size, mtimeNS int64
}

// Sync brings the index in step with the capture files in dir (the
// sessions folder): files it has not seen, or whose size or modification
// time changed, are read again (several at once); rows of files that are
// gone are dropped. It returns how many files it read.
func (ix *Index) Sync(dir string) (int, error) {
	var n int
	err := ix.retry(func() error {
		var err error
		n, err = ix.sync(dir)
		return err
	})
	return n, err
}

func (ix *Index) sync(dir string) (int, error) {
	ctx := context.Background()
	files, err := capture.SessionFiles(dir)
	if err != nil {
		return 0, err
	}
	if err := ix.keyRules(ctx); err != nil {
		return 0, err
	}
	known, err := ix.stamps(ctx)
	if err != nil {
		return 0, err
	}
	var stale []string
	infos := map[string]os.FileInfo{}
	for _, p := range files {
		fi, err := os.Stat(p)
		if err != nil {
			continue // gone since the listing: dropped below on the next run
		}
		delete(known.m, p)
		if st, ok := known.seen[p]; ok && st == (stamp{fi.Size(), fi.ModTime().UnixNano()}) {
			continue
		}
		stale = append(stale, p)
		infos[p] = fi
	}
	if len(known.m) > 0 {
		if err := ix.drop(ctx, known.m); err != nil {
			return 0, err
		}
	}
	return len(stale), ix.index(ctx, stale, infos)
}

type stamps struct {
	seen map[string]stamp
	m    map[string]bool // every indexed path; Sync removes those it lists
}

func (ix *Index) stamps(ctx context.Context) (stamps, error) {
	out := stamps{seen: map[string]stamp{}, m: map[string]bool{}}
	rows, err := ix.db.QueryContext(ctx, "SELECT path, size, mtime FROM files")
	if err != nil {
		return out, fmt.Errorf("reading the session index: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p string
		var st stamp
		if err := rows.Scan(&p, &st.size, &st.mtimeNS); err != nil {
			return out, fmt.Errorf("reading the session index: %w", err)
		}
		out.seen[p], out.m[p] = st, true
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("reading the session index: %w", err)
	}
	return out, nil
}

func (ix *Index) drop(ctx context.Context, paths map[string]bool) error {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("updating the session index: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	for p := range paths {
		if _, err := tx.ExecContext(ctx, "DELETE FROM files WHERE path = ?", p); err != nil {
			return fmt.Errorf("updating the session index: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("updating the session index: %w", err)
	}
	return nil
}

// index reads the files at paths (infos holds their stat) with as many
// workers as there are CPUs and writes what they gave, a batch per
// transaction.
func (ix *Index) index(ctx context.Context, paths []string, infos map[string]os.FileInfo) error {
	if len(paths) == 0 {
		return nil
	}
	work := make(chan string)
	done := make(chan fileEntries)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(paths)) {
		wg.Go(func() {
			for p := range work {
				done <- readFile(p, infos[p], ix.registry())
			}
		})
	}
	go func() {
		for _, p := range paths {
			work <- p
		}
		close(work)
		wg.Wait()
		close(done)
	}()
	var batch []fileEntries
	var werr error
	for fe := range done {
		if werr != nil {
			continue // drain the workers
		}
		if batch = append(batch, fe); len(batch) == 64 {
			werr, batch = ix.write(ctx, batch), batch[:0]
		}
	}
	if werr != nil {
		return werr
	}
	return ix.write(ctx, batch)
}

func (ix *Index) write(ctx context.Context, batch []fileEntries) error {
	if len(batch) == 0 {
		return nil
	}
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("updating the session index: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	for i := range batch {
		if err := put(ctx, tx, &batch[i]); err != nil {
			return fmt.Errorf("updating the session index: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("updating the session index: %w", err)
	}
	return nil
}

// Update indexes the capture at path now (a session just ended), whatever
// the index held of it.
func (ix *Index) Update(path string) error {
	path = filepath.Clean(path)
	return ix.retry(func() error {
		fi, err := os.Stat(path)
		if err != nil {
			return fmt.Errorf("indexing %s: %w", path, err)
		}
		if err := ix.keyRules(context.Background()); err != nil {
			return err
		}
		return ix.index(context.Background(), []string{path}, map[string]os.FileInfo{path: fi})
	})
}

// Remove drops what the index holds of the files at paths (prune deleted
// them).
func (ix *Index) Remove(paths []string) error {
	m := map[string]bool{}
	for _, p := range paths {
		m[p] = true
	}
	return ix.retry(func() error { return ix.drop(context.Background(), m) })
}
