package clientconfig

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// The errors of Replace. Each leaves the file as its client last wrote
// it.
var (
	// ErrChanged: the file no longer holds what was read: its client
	// wrote it meanwhile. Nothing was changed.
	ErrChanged = errors.New("the file changed while it was being edited; run again")
	// ErrOverwritten: the client wrote the file again right after Replace
	// did, so the edit may be gone from it.
	ErrOverwritten = errors.New("its client wrote it again right after mcptrail did, so the change may be gone; run again")
	// ErrReadOnly: the file is read-only; mcptrail does not replace a
	// file made read-only.
	ErrReadOnly = errors.New("the file is read-only; make it writable for mcptrail to edit it, or apply the --dry-run diff by hand")
	// ErrHardLinked: the file has other names (hard links), which
	// replacing it would leave with the old content.
	ErrHardLinked = errors.New("the file has other hard links, which replacing it would leave behind; make it a single file (or a symbolic link), or apply the --dry-run diff by hand")
)

// maxRestores bounds how many times Replace follows a client that keeps
// writing while it puts the client's version back.
const maxRestores = 64

// Replace puts data in place of the file at once, after a backup of Data
// (Backup, at now), and returns the backup's name. The new content is
// written to a temporary file beside it, with the file's permissions,
// which then takes the file's place, so a client never reads half of it.
//
// A client may write the file at any moment (Claude Code rewrites
// ~/.claude.json all the time): Replace checks the file (which file it
// is, size, modification time, mode, content) before the swap and after
// it, and never leaves an edit of an older version in place of a newer
// one. Where the system swaps two files in one step (Linux, macOS), the
// version swapped out is checked, and a client's version put back
// (ErrChanged); elsewhere the last check is made just before the rename.
// A client that writes again just after is reported as ErrOverwritten.
//
// A read-only file (ErrReadOnly) and one with several hard links
// (ErrHardLinked) are refused before anything is written.
func (f *File) Replace(data []byte, now time.Time) (string, error) {
	if err := f.writable(); err != nil {
		return "", err
	}
	if err := f.holds(f.real); err != nil {
		return "", err
	}
	backup, err := Backup(f.Path, f.Data, now)
	if err != nil {
		return "", err
	}
	err = f.swap(data)
	if errors.Is(err, ErrChanged) {
		_ = os.Remove(backup) // nothing changed: the backup would only confuse
	}
	if err != nil {
		return "", err
	}
	return backup, nil
}

// writable returns why the file must not be replaced, or nil.
func (f *File) writable() error {
	mode := f.info.Mode()
	switch {
	case !mode.IsRegular():
		return fmt.Errorf("not replacing %s: not a regular file", f.Path)
	case mode.Perm()&0o200 == 0:
		return fmt.Errorf("not replacing %s (mode %04o): %w", f.Path, mode.Perm(), ErrReadOnly)
	}
	if n := links(f.info); n > 1 {
		return fmt.Errorf("not replacing %s (%d hard links): %w", f.Path, n, ErrHardLinked)
	}
	return nil
}

// holds returns ErrChanged unless name is still the version of the file
// that was read, with the same content.
func (f *File) holds(name string) error {
	fi, err := os.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && !sameVersion(f.info, fi)) {
		return fmt.Errorf("replacing %s: %w", f.Path, ErrChanged)
	}
	if err != nil {
		return fmt.Errorf("replacing %s: %w", f.Path, err)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return fmt.Errorf("replacing %s: %w", f.Path, err)
	}
	if !bytes.Equal(data, f.Data) {
		return fmt.Errorf("replacing %s: %w", f.Path, ErrChanged)
	}
	return nil
}

// swap writes data to a temporary file and puts it in the file's place.
func (f *File) swap(data []byte) error {
	tmp, ours, err := writeTemp(f.real, data, f.info.Mode().Perm())
	if err != nil {
		return fmt.Errorf("replacing %s: %w", f.Path, err)
	}
	f.at("written")
	if err := f.holds(f.real); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	f.at("checked")
	switch err := exchange(tmp, f.real); {
	case errors.Is(err, errors.ErrUnsupported):
		if err := os.Rename(tmp, f.real); err != nil {
			_ = os.Remove(tmp)
			return fmt.Errorf("replacing %s: %w", f.Path, err)
		}
	case errors.Is(err, fs.ErrNotExist):
		_ = os.Remove(tmp)
		return fmt.Errorf("replacing %s: %w", f.Path, ErrChanged)
	case err != nil:
		_ = os.Remove(tmp)
		return fmt.Errorf("replacing %s: %w", f.Path, err)
	default:
		// tmp names the version swapped out: the one read, or a client's.
		if f.holds(tmp) != nil {
			return f.restore(tmp, ours)
		}
		_ = os.Remove(tmp)
	}
	f.at("replaced")
	if fi, err := os.Lstat(f.real); err != nil || !os.SameFile(fi, ours) {
		return fmt.Errorf("replacing %s: %w", f.Path, ErrOverwritten)
	}
	return nil
}

// restore swaps back the client's version that swap moved to tmp, where
// ours (the new file) stood, and returns ErrChanged. Each swap is checked:
// if the client wrote the file again in between, its newer version went
// to tmp and is swapped back in turn.
func (f *File) restore(tmp string, ours fs.FileInfo) error {
	placed := ours // what stands in the file's place
	for range maxRestores {
		f.at("restoring")
		held, err := os.Lstat(tmp)
		if err == nil {
			err = exchange(tmp, f.real)
		}
		if err != nil {
			return fmt.Errorf("replacing %s: %w, and putting the client's version back failed (it is kept as %s): %w", f.Path, ErrChanged, tmp, err)
		}
		if got, err := os.Lstat(tmp); err == nil && sameVersion(got, placed) {
			_ = os.Remove(tmp) // ours, or a client's version it has since replaced
			return fmt.Errorf("replacing %s: %w", f.Path, ErrChanged)
		}
		placed = held
	}
	return fmt.Errorf("replacing %s: %w; its client kept writing it: a version mcptrail moved aside is kept as %s", f.Path, ErrChanged, tmp)
}

// at calls the test hook, if any.
func (f *File) at(step string) {
	if f.step != nil {
		f.step(step)
	}
}

// writeTemp writes data to a new file beside path, with mode perm, and
// returns its name and what it is.
func writeTemp(path string, data []byte, perm fs.FileMode) (string, fs.FileInfo, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".mcptrail-*")
	if err != nil {
		return "", nil, err
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(perm)
	}
	if err == nil {
		err = tmp.Sync()
	}
	var fi fs.FileInfo
	if err == nil {
		fi, err = tmp.Stat()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return "", nil, err
	}
	return tmp.Name(), fi, nil
}
