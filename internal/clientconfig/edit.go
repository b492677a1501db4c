package clientconfig

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Format is a configuration file's syntax.
type Format int

// The formats.
const (
	// JSON is JSON with comments and trailing commas (JSONC): a strict
	// JSON file is one too.
	JSON Format = iota
	// TOML is Codex's config.toml.
	TOML
)

// Options are wrap's knobs.
type Options struct {
	// Mcptrail is the command written in front of a server: the absolute
	// path of the mcptrail binary. It must not be empty.
	Mcptrail string
	// Capture, when not empty, is passed as --capture (a path template
	// with {time}, {label}, {pid}, {id}); empty leaves captures in the
	// sessions directory.
	Capture string
}

// Action is what wrap or unwrap did, or found, for one server.
type Action int

// The actions.
const (
	// Wrapped: wrap put mcptrail in front of the server.
	Wrapped Action = iota
	// Unwrapped: unwrap restored the server's original entry.
	Unwrapped
	// AlreadyWrapped: the server already runs through mcptrail.
	AlreadyWrapped
	// NotWrapped: unwrap found nothing to undo.
	NotWrapped
	// Remote: the server is a URL; wrap leaves the file alone and says how
	// to run `mcptrail http` in front of it.
	Remote
	// Skipped: the entry has a shape neither can edit (Change.Why says).
	Skipped
)

// Change reports what happened to one server.
type Change struct {
	// Name is the server's name in the configuration.
	Name   string
	Action Action
	// URL is a Remote server's endpoint, URLKey the key holding it
	// (url, serverUrl, httpUrl) and Type its "type" member, if any.
	URL, URLKey, Type string
	// Why says why an entry was Skipped.
	Why string
}

// ErrNoMcptrail is returned by Wrap when Options.Mcptrail is empty.
var ErrNoMcptrail = errors.New("no mcptrail command to write")

// edit replaces src[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// apply performs non-overlapping edits on src, in one pass: the copy of
// a large ~/.claude.json is made once, not once per edit.
func apply(src []byte, edits []edit) []byte {
	slices.SortStableFunc(edits, func(a, b edit) int { return cmp.Compare(a.start, b.start) })
	size := len(src)
	for _, e := range edits {
		size += len(e.text) - (e.end - e.start)
	}
	out := make([]byte, 0, size)
	pos := 0
	for _, e := range edits {
		out = append(append(out, src[pos:e.start]...), e.text...)
		pos = e.end
	}
	return append(out, src[pos:]...)
}

func servers(src []byte, l Layout) ([]server, error) {
	if l.Format == TOML {
		return tomlServers(src)
	}
	return jsonServers(src, l.Servers)
}

// pick keeps the servers named in names (all when names is nil).
func pick(list []server, names []string) []server {
	if names == nil {
		return list
	}
	return slices.DeleteFunc(list, func(sv server) bool { return !slices.Contains(names, sv.name) })
}

// Wrap puts mcptrail in front of the stdio servers of src named in names
// (all of them when names is nil), in the list l says, and returns the new
// document and what happened to each server found. A server wrapped
// already is left alone, so wrapping twice changes nothing.
func Wrap(src []byte, l Layout, names []string, opts *Options) ([]byte, []Change, error) {
	if opts == nil || opts.Mcptrail == "" {
		return nil, nil, ErrNoMcptrail
	}
	list, err := servers(src, l)
	if err != nil {
		return nil, nil, err
	}
	var edits []edit
	var changes []Change
	for _, sv := range pick(list, names) {
		es, c := wrapOne(src, &sv, opts)
		edits = append(edits, es...)
		changes = append(changes, c)
	}
	return apply(src, edits), changes, nil
}

func wrapOne(src []byte, sv *server, opts *Options) ([]edit, Change) {
	c := Change{Name: sv.name, Action: Wrapped, Type: sv.typ}
	switch _, argsOK := stringElems(sv.args); {
	case sv.command == nil && sv.url != "":
		c.Action, c.URL, c.URLKey = Remote, sv.url, sv.urlKey
		return nil, c
	case sv.command == nil:
		return nil, skip(c, "it has no command and no url")
	case sv.command.kind != '"':
		return nil, skip(c, "its command is not a string")
	case sv.throughMcptrail(opts.Mcptrail):
		c.Action = AlreadyWrapped
		return nil, c
	case sv.args != nil && !argsOK:
		return nil, skip(c, "its args are not a list of strings")
	}
	cmdRaw := string(src[sv.command.start:sv.command.end])
	edits := []edit{{sv.command.start, sv.command.end, quote(opts.Mcptrail)}}
	flags := []string{"--label", sv.name}
	if sv.args == nil {
		// The one-element --label=NAME marks an args member wrap added.
		flags = []string{"--label=" + sv.name}
	}
	if opts.Capture != "" {
		flags = append(flags, "--capture", opts.Capture)
	}
	flags = append(flags, "--")
	elems := make([]string, 0, len(flags)+1)
	for _, fl := range flags {
		elems = append(elems, quote(fl))
	}
	elems = append(elems, cmdRaw)
	text := strings.Join(elems, ", ")
	if sv.args == nil {
		pos, member := sv.addArgs("[" + text + "]")
		return append(edits, edit{pos, pos, member}), c
	}
	// After the blanks that follow [, so unwrap finds them where they were.
	pos := sv.args.start + 1
	for pos < len(src) && strings.IndexByte(" \t\r\n", src[pos]) >= 0 {
		pos++
	}
	if src[pos] != ']' {
		text += ", "
	}
	return append(edits, edit{pos, pos, text}), c
}

func skip(c Change, why string) Change {
	c.Action, c.Why = Skipped, why
	return c
}

// Unwrap restores the servers of src named in names (all when nil), in the
// list l says, that wrap wrapped, and returns the new document and what happened to each
// server found. An entry wrap did not write is left alone, so unwrapping
// twice changes nothing. An entry counts as wrapped when its command is
// a file named like mcptrail or, with opts, opts.Mcptrail.
func Unwrap(src []byte, l Layout, names []string, opts *Options) ([]byte, []Change, error) {
	self := ""
	if opts != nil {
		self = opts.Mcptrail
	}
	list, err := servers(src, l)
	if err != nil {
		return nil, nil, err
	}
	var edits []edit
	var changes []Change
	for _, sv := range pick(list, names) {
		es, c := unwrapOne(src, &sv, self)
		edits = append(edits, es...)
		changes = append(changes, c)
	}
	return apply(src, edits), changes, nil
}

func unwrapOne(src []byte, sv *server, self string) ([]edit, Change) {
	c := Change{Name: sv.name, Action: Unwrapped, Type: sv.typ}
	dash, ok := sv.wrapped(self)
	if !ok {
		if sv.throughMcptrail(self) {
			return nil, skip(c, "it runs through mcptrail, but not as wrap writes it")
		}
		c.Action = NotWrapped
		return nil, c
	}
	orig := sv.args.elems[dash+1]
	edits := []edit{{sv.command.start, sv.command.end, string(src[orig.start:orig.end])}}
	first := sv.args.elems[0]
	if strings.HasPrefix(first.str, "--label=") {
		start, end, want := sv.addedArgs()
		if start < sv.command.end || end > len(src) || start > end || string(src[start:end]) != want {
			return nil, skip(c, "its args were edited after wrap added them")
		}
		return append(edits, edit{start, end, ""}), c
	}
	end := orig.end
	if end < len(src) && src[end] == ',' {
		end++
		if end < len(src) && src[end] == ' ' {
			end++
		}
	}
	return append(edits, edit{first.start, end, ""}), c
}

// quote writes s as a string literal that JSON and TOML basic strings
// read alike.
func quote(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
