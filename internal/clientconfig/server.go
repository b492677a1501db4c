package clientconfig

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
)

// server is one entry of a configuration's server list, located in the
// document.
type server struct {
	name    string
	command *node // nil when absent
	args    *node // nil when absent
	// url is the endpoint of a remote server, urlKey the key that holds it.
	url, urlKey string
	// typ is the entry's "type" ("stdio", "http", "sse"), if any.
	typ string
	// addArgs says where an args member that wrap adds goes, and its text
	// around the array text arr.
	addArgs func(arr string) (pos int, text string)
	// addedArgs gives the span an args member that wrap added occupies
	// now, and the text it must hold to be removed by unwrap.
	addedArgs func() (start, end int, want string)
}

// urlKeys are the keys clients use for a remote server's endpoint:
// url (most), serverUrl (Windsurf), httpUrl (Gemini CLI's Streamable HTTP).
var urlKeys = []string{"url", "serverUrl", "httpUrl"}

// jsonServers lists the servers of a JSONC configuration: the members of
// the object at path, or with no path of its top-level "mcpServers"
// object, else of its "servers" object (VS Code).
func jsonServers(src []byte, path []string) ([]server, error) {
	root, err := parseJSONC(src)
	if err != nil {
		return nil, err
	}
	list := root
	for _, k := range path {
		list = list.get(k)
	}
	if path == nil {
		list = cmp.Or(root.get("mcpServers"), root.get("servers"))
	}
	if list == nil || list.kind != '{' {
		return nil, nil
	}
	var out []server
	for _, m := range list.members {
		if m.val.kind != '{' {
			continue
		}
		out = append(out, jsonServer(src, m.key, m.val))
	}
	return out, nil
}

func jsonServer(src []byte, name string, n *node) server {
	sv := server{name: name, command: n.get("command"), args: n.get("args")}
	if t := n.get("type"); t != nil && t.kind == '"' {
		sv.typ = t.str
	}
	for _, k := range urlKeys {
		if u := n.get(k); u != nil && u.kind == '"' {
			sv.url, sv.urlKey = u.str, k
			break
		}
	}
	cmd := sv.command
	sep := memberSep(src, n, "command")
	sv.addArgs = func(arr string) (int, string) {
		return cmd.end, sep + `"args": ` + arr
	}
	sv.addedArgs = func() (int, int, string) {
		return cmd.end, sv.args.end, sep + `"args": ` + string(src[sv.args.start:sv.args.end])
	}
	return sv
}

// memberSep is what goes between the value of n's member key and a member
// added after it: a comma and, when key starts its own line, a newline and
// the same indentation.
func memberSep(src []byte, n *node, key string) string {
	start := -1
	for _, m := range n.members {
		if m.key == key {
			start = m.keyStart
		}
	}
	line := start
	for line > 0 && (src[line-1] == ' ' || src[line-1] == '\t') {
		line--
	}
	if start < 0 || line == 0 || src[line-1] != '\n' {
		return ", "
	}
	nl := "\n"
	if line >= 2 && src[line-2] == '\r' {
		nl = "\r\n"
	}
	return "," + nl + string(src[line:start])
}

// tomlServers lists the servers of a Codex config.toml: the tables (or
// inline tables, or dotted keys) under mcp_servers.
func tomlServers(src []byte) ([]server, error) {
	kvs, err := parseTOML(src)
	if err != nil {
		return nil, err
	}
	var names []string
	fields := map[string]map[string]*tomlKV{}
	for i := range kvs {
		kv := &kvs[i]
		if len(kv.path) < 3 || kv.path[0] != "mcp_servers" {
			continue
		}
		name, field := kv.path[1], kv.path[2]
		if fields[name] == nil {
			fields[name] = map[string]*tomlKV{}
			names = append(names, name)
		}
		if len(kv.path) == 3 && !kv.header {
			fields[name][field] = kv
		} else if fields[name][field] == nil {
			// A table (mcp_servers.NAME.env, or an odd args.x): neither
			// a command nor a list of arguments.
			fields[name][field] = &tomlKV{path: kv.path[:3], val: &node{kind: 't'}}
		}
	}
	out := make([]server, 0, len(names))
	for _, name := range names {
		out = append(out, tomlServer(src, name, fields[name]))
	}
	return out, nil
}

func tomlServer(src []byte, name string, f map[string]*tomlKV) server {
	sv := server{name: name}
	cmdKV := f["command"]
	if cmdKV != nil {
		sv.command = cmdKV.val
	}
	if a := f["args"]; a != nil {
		sv.args = a.val
	}
	if u := f["url"]; u != nil && u.val.kind == '"' {
		sv.url, sv.urlKey = u.val.str, "url"
	}
	if cmdKV == nil {
		return sv
	}
	if cmdKV.inline {
		sv.addArgs = func(arr string) (int, string) { return cmdKV.val.end, ", args = " + arr }
		sv.addedArgs = func() (int, int, string) {
			return cmdKV.val.end, sv.args.end, ", args = " + string(src[sv.args.start:sv.args.end])
		}
		return sv
	}
	// A line of its own, after the command's, with its indentation and
	// key prefix (mcp_servers.NAME. when the command's key is dotted).
	lead := string(src[cmdKV.lineStart:cmdKV.keyStart]) + string(src[cmdKV.keyStart:cmdKV.lastKeyStart])
	nl := "\n"
	if bytes.HasSuffix(src[:cmdKV.lineEnd], []byte("\r\n")) {
		nl = "\r\n"
	}
	sv.addArgs = func(arr string) (int, string) {
		if cmdKV.lineEnd == len(src) && !bytes.HasSuffix(src, []byte("\n")) {
			return len(src), "\n" + lead + "args = " + arr
		}
		return cmdKV.lineEnd, lead + "args = " + arr + nl
	}
	sv.addedArgs = func() (int, int, string) {
		argsKV := f["args"]
		line := lead + "args = " + string(src[argsKV.val.start:argsKV.val.end])
		if argsKV.lineEnd == len(src) && !bytes.HasSuffix(src, []byte("\n")) {
			return cmdKV.lineEnd - 1, len(src), "\n" + line
		}
		return cmdKV.lineEnd, argsKV.lineEnd, line + nl
	}
	return sv
}

// strings returns the decoded elements of an array of strings, or false
// when it is not one.
func stringElems(arr *node) ([]string, bool) {
	if arr == nil || arr.kind != '[' {
		return nil, false
	}
	out := make([]string, 0, len(arr.elems))
	for _, e := range arr.elems {
		if e.kind != '"' {
			return nil, false
		}
		out = append(out, e.str)
	}
	return out, true
}

// wrapped reports whether sv is an entry wrap wrote: its command is
// mcptrail, its args start with --label and hold "--" followed by the
// original command; it returns the index of "--".
func (sv *server) wrapped(self string) (dash int, ok bool) {
	if !sv.throughMcptrail(self) {
		return 0, false
	}
	args, ok := stringElems(sv.args)
	if !ok || len(args) == 0 || (args[0] != "--label" && !strings.HasPrefix(args[0], "--label=")) {
		return 0, false
	}
	// Past the values of --label and --capture, which may be "--" too.
	from := 1
	if args[0] == "--label" {
		from = 2
	}
	if from+1 < len(args) && args[from] == "--capture" {
		from += 2
	}
	if from > len(args) {
		return 0, false
	}
	i := slices.Index(args[from:], "--")
	if i < 0 || from+i+1 >= len(args) {
		return 0, false
	}
	return from + i, true
}

// throughMcptrail reports whether sv's command is mcptrail already (a
// hand-written wrap, or ours): self, or a file whose name holds
// "mcptrail" (mcptrail, mcptrail.exe, a renamed build).
func (sv *server) throughMcptrail(self string) bool {
	if sv.command == nil || sv.command.kind != '"' {
		return false
	}
	c := sv.command.str
	if c == self {
		return true
	}
	base := strings.ToLower(c[strings.LastIndexAny(c, `/\`)+1:])
	return strings.Contains(base, "mcptrail")
}
