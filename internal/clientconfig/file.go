package clientconfig

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/aymanbagabas/go-udiff"
)

// Diff is a unified diff from old to new, labelled with path.
func Diff(path string, old, new []byte) string {
	return udiff.Unified(path, path+" (new)", string(old), string(new))
}

// Backup writes data, the file's current content, next to path as
// PATH.mcptrail-backup-TIME (UTC, 20060102T150405Z; -2, -3... when that
// exists), private to the user (0600), and returns its name. It never
// replaces a file.
func Backup(path string, data []byte, now time.Time) (string, error) {
	base := path + ".mcptrail-backup-" + now.UTC().Format("20060102T150405Z")
	for i := 1; ; i++ {
		name := base
		if i > 1 {
			name += "-" + strconv.Itoa(i)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) && i < 100 {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("writing backup of %s: %w", path, err)
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return "", fmt.Errorf("writing backup %s: %w", name, err)
		}
		return name, nil
	}
}

// File is a configuration file as it was read: its bytes and which
// version of the file they came from (the file itself, its size, its
// modification time and mode), so that Replace can tell whether its
// client has written it since.
type File struct {
	// Path is the file's name as given. A symbolic link (a dotfiles
	// manager's) is followed: its target is the file read and replaced,
	// and the link stays a link.
	Path string
	// Data is the content read.
	Data []byte

	real string      // Path with its symbolic links resolved
	info fs.FileInfo // of the open file Data was read from

	// step, when not nil, is called between the steps of Replace
	// ("written", "checked", "restoring", "replaced"), so that a test can
	// play a client writing the file at that moment. Tests set it.
	step func(name string)
}

// Read reads the file at path. A file that changes while it is read (a
// client writing it in place) is ErrChanged.
func Read(path string) (*File, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	fd, err := os.Open(real)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer fd.Close()
	before, err := fd.Stat()
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	data, err := io.ReadAll(fd)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	after, err := fd.Stat()
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if !sameVersion(before, after) || int64(len(data)) != after.Size() {
		return nil, fmt.Errorf("reading %s: %w", path, ErrChanged)
	}
	return &File{Path: path, Data: data, real: real, info: before}, nil
}

// sameVersion reports whether a and b describe the same file with the
// same size, modification time and mode.
func sameVersion(a, b fs.FileInfo) bool {
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime()) && a.Mode() == b.Mode()
}
