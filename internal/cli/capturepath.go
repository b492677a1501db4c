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
// {time} (UTC start, 20060102T150405Z), {label}, {pid} and {id} (the
// session id). Any other {name} is a usage error. Every field is made
// file safe (capture.FileSafe): it adds no separator and never makes a
// component "." or "..", so the expanded path has the template's
// directories, whatever a label (from a server's command, say) holds.
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
		var value string
		switch field := path[i+1 : i+j]; field {
		case "time":
			value = start.UTC().Format("20060102T150405Z")
		case "label":
			value = label
		case "pid":
			value = strconv.Itoa(pid)
		case "id":
			value = id
		default:
			return "", usagef("--capture: unknown field {%s} (fields: {time}, {label}, {pid}, {id})", field)
		}
		b.WriteString(capture.FileSafe(value))
		path = path[i+j+1:]
	}
}

// userCapture checks the capture path template of the user's own
// configuration file: it must be absolute or start with ~/ (made the home
// directory), since a relative path would land in whatever directory a
// client starts the server in, which a cloned repository controls.
func userCapture(file, p string, getenv func(string) string) (string, error) {
	if p == "" || filepath.IsAbs(p) {
		return p, nil
	}
	if rest, ok := strings.CutPrefix(p, "~"); ok && (rest == "" || os.IsPathSeparator(rest[0]) || rest[0] == '/') {
		home := absEnv(getenv, "HOME")
		if home == "" {
			home = absEnv(getenv, "USERPROFILE")
		}
		if home == "" {
			return "", usagef("%s: capture starts with ~, but HOME is not set to an absolute path", file)
		}
		return filepath.Join(home, rest), nil
	}
	return "", usagef("%s: capture must be an absolute path or start with ~/ (a relative path would land in whatever directory the server is started in)", file)
}

// localCaptureError refuses the capture path the working directory's
// .mcptrail.toml sets: that file may come with a cloned repository, which
// must not choose where mcptrail writes. It names the user's own file,
// where the setting belongs.
func localCaptureError(cfg *config) error {
	where := "pass --capture PATH"
	if cfg.user != "" {
		where = "set it in " + cfg.user + " (your own configuration), or pass --capture PATH"
	}
	return usagef("%s: capture is not accepted in the working directory's configuration, which may come with a cloned repository and must not choose where mcptrail writes; %s", configFile, where)
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
