package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// addCaptureFileFlags adds the flags that say what --capture does with an
// existing file.
func addCaptureFileFlags(fl *pflag.FlagSet, f *tapFlags) {
	fl.BoolVar(&f.appendTo, "append", false, "with --capture, add this session to an existing capture file instead of refusing it")
	fl.BoolVar(&f.force, "force", false, "with --capture, replace an existing capture file instead of refusing it")
}

// captureMode checks --append and --force and returns the mode they ask
// for.
func (f *tapFlags) captureMode() (capture.Mode, error) {
	switch {
	case f.appendTo && f.force:
		return 0, usagef("--append and --force cannot be used together")
	case (f.appendTo || f.force) && f.capture == "":
		return 0, usagef("--append and --force apply to --capture PATH (sessions in the state directory are new files)")
	case f.appendTo:
		return capture.Append, nil
	case f.force:
		return capture.Truncate, nil
	}
	return capture.Exclusive, nil
}

// expandCapturePath fills the template fields of a --capture path:
// {time} (UTC start, 20060102T150405Z), {label} (made file safe), {pid}
// and {id} (the session id). Any other {name} is a usage error.
func expandCapturePath(path string, start time.Time, label, id string, pid int) (string, error) {
	var b strings.Builder
	for {
		i := strings.IndexByte(path, '{')
		if i < 0 {
			b.WriteString(path)
			return b.String(), nil
		}
		j := strings.IndexByte(path[i:], '}')
		if j < 0 {
			return "", usagef("--capture %q: unclosed { (fields: {time}, {label}, {pid}, {id})", path)
		}
		b.WriteString(path[:i])
		switch field := path[i+1 : i+j]; field {
		case "time":
			b.WriteString(start.UTC().Format("20060102T150405Z"))
		case "label":
			b.WriteString(capture.FileSafe(label))
		case "pid":
			b.WriteString(strconv.Itoa(pid))
		case "id":
			b.WriteString(id)
		default:
			return "", usagef("--capture: unknown field {%s} (fields: {time}, {label}, {pid}, {id})", field)
		}
		path = path[i+j+1:]
	}
}

// checkConfigCapture refuses a capture path from .mcptrail.toml that
// leaves the working directory: an absolute path, a .. escape, or a
// directory symlink that leads elsewhere. Such a path must come from the
// --capture flag, so a file in a checked-out repository cannot make the
// proxy write anywhere.
func checkConfigCapture(p string) error {
	bad := func(why string) error {
		return usagef("%s: capture = %q %s; it must be a relative path below this directory (pass --capture to write elsewhere)", configFile, p, why)
	}
	if filepath.IsAbs(p) || filepath.VolumeName(p) != "" || strings.HasPrefix(p, "~") {
		return bad("is absolute")
	}
	clean := filepath.Clean(p)
	if clean == "." || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return bad("leaves the working directory")
	}
	wd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("checking %s capture: %w", configFile, err)
	}
	wd, err = filepath.EvalSymlinks(wd)
	if err != nil {
		return fmt.Errorf("checking %s capture: %w", configFile, err)
	}
	// The deepest existing directory of the path must resolve below wd.
	dir := filepath.Dir(clean)
	for dir != "." {
		real, err := filepath.EvalSymlinks(dir)
		if errors.Is(err, os.ErrNotExist) {
			dir = filepath.Dir(dir)
			continue
		}
		if err != nil {
			return fmt.Errorf("checking %s capture: %w", configFile, err)
		}
		if !filepath.IsAbs(real) {
			real = filepath.Join(wd, real)
		}
		if rel, err := filepath.Rel(wd, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return bad("goes through a symbolic link that leaves the working directory")
		}
		break
	}
	return nil
}

// captureHint says how to run anyway when the capture cannot be created.
// A file another run holds fails the operation (whatever the mode); a
// path the flags should not have named (an existing file, a symbolic
// link, a directory, a file --append cannot add to) is a usage error.
func captureHint(err error) error {
	if errors.Is(err, capture.ErrLocked) {
		return err
	}
	for _, refused := range []error{capture.ErrExists, capture.ErrSymlink, capture.ErrNotRegular, capture.ErrNotCapture} {
		if errors.Is(err, refused) {
			return asUsage(err)
		}
	}
	return fmt.Errorf("%w\nmcptrail: nothing was started; to run anyway, pass --no-capture (no capture) or --capture PATH (a writable file)", err)
}
