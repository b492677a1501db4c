package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
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

// expandCapturePath fills the template fields of a --capture path
// (capture.ExpandPath); a template it cannot fill is a usage error.
func expandCapturePath(path string, start time.Time, label, id string, pid int) (string, error) {
	p, err := capture.ExpandPath(path, &capture.PathFields{Start: start, Label: label, ID: id, PID: pid})
	var te *capture.TemplateError
	switch {
	case errors.As(err, &te) && te.Field == "":
		return "", usagef("--capture %q: %v", path, err)
	case err != nil:
		return "", usagef("--capture: %v", err)
	}
	return p, nil
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
