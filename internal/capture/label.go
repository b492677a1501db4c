package capture

import (
	"path"
	"strings"

	"github.com/go-json-experiment/json"
)

// Flags that take a value, per launcher, so the operand after them is not
// mistaken for the server's name.
const (
	npxValueFlags    = "-p --package -c --call --registry --cache"
	uvxValueFlags    = "--from --with --with-requirements --python -p --index --index-url --extra-index-url --directory --project -w"
	nodeValueFlags   = "-r --require --import --loader --experimental-loader --conditions -C --env-file --title --input-type"
	pythonValueFlags = "-W -X -Q"
	denoValueFlags   = "--config -c --import-map --env-file --location --seed --cert --allow-read --allow-write --allow-net --allow-env"
	goValueFlags     = "-C -tags -ldflags -gcflags -mod -modfile -o -p -exec -toolexec -overlay -pgo"
	dockerValueFlags = "-e --env --env-file -v --volume --name --network --net -p --publish --mount -w --workdir -u --user --entrypoint --platform -l --label --add-host --cpus -m --memory --pull -h --hostname --device --tmpfs --restart --cap-add --cap-drop --security-opt --ulimit --log-driver --log-opt --dns"
)

// DeriveLabel names a session after the server it wraps: the script or
// package, not the runtime or launcher in front of it
// (`npx -y @scope/server-foo` → server-foo, `python -m pkg.mod` → pkg.mod,
// `node /src/weather/dist/index.js` → weather). It reads no file:
// DeriveLabelFiles also names `node dist/index.js` after its package.
func DeriveLabel(argv []string) string { return DeriveLabelFiles(argv, nil) }

// DeriveLabelFiles is DeriveLabel reading files with readFile (nil reads
// none): a node script named index or main takes the name of the package
// of the nearest package.json above it (scope dropped), else the name of
// the directory above dist, build, lib or out. Relative paths are the
// server's working directory's, the caller's.
func DeriveLabelFiles(argv []string, readFile func(name string) ([]byte, error)) string {
	for depth := 0; len(argv) > 0 && depth < 8; depth++ {
		name := strings.TrimSuffix(path.Base(strings.ReplaceAll(argv[0], `\`, "/")), ".exe")
		rest := argv[1:]
		switch {
		case name == "env":
			argv = skipEnv(rest)
			continue
		case name == "exec" || name == "nohup" || name == "time":
			argv = rest
			continue
		case name == "npx" || name == "bunx" || name == "pnpx" || name == "uvx":
			return orName(packageLabel(operand(rest, npxValueFlags+" "+uvxValueFlags)), name)
		case name == "pipx" || name == "npm" || name == "pnpm" || name == "yarn":
			return orName(packageLabel(operand(afterWord(rest, "run", "exec", "dlx", "x"), npxValueFlags)), name)
		case name == "uv":
			rest = afterWord(rest, "run", "tool")
			if len(rest) > 0 && rest[0] == "run" { // uv tool run PKG
				return orName(packageLabel(operand(rest[1:], uvxValueFlags)), name)
			}
			argv = operandAndAfter(rest, uvxValueFlags)
			continue
		case strings.HasPrefix(name, "python") || name == "py":
			return orName(pythonLabel(rest), name)
		case name == "node" || name == "nodejs" || name == "tsx" || name == "ts-node" || name == "bun" || name == "deno":
			return orName(nodeScriptLabel(operand(afterWord(rest, "run"), nodeValueFlags+" "+denoValueFlags), readFile), name)
		case name == "go":
			return orName(goLabel(operand(afterWord(rest, "run"), goValueFlags)), name)
		case name == "docker" || name == "podman":
			return orName(imageLabel(operand(afterWord(rest, "run"), dockerValueFlags)), name)
		case (name == "sh" || name == "bash" || name == "zsh") && len(rest) >= 2 && rest[0] == "-c":
			argv = skipEnv(strings.Fields(rest[1])) // VAR=value before the command
			continue
		}
		return orName(scriptLabel(argv[0]), "session")
	}
	return "session"
}

func orName(label, name string) string {
	if label == "" {
		return name
	}
	return label
}

// skipEnv drops env's options and VAR=value assignments.
func skipEnv(args []string) []string {
	for len(args) > 0 && (strings.HasPrefix(args[0], "-") || strings.Contains(args[0], "=")) {
		if args[0] == "-u" || args[0] == "-C" || args[0] == "-S" {
			args = args[1:]
		}
		args = args[1:]
	}
	return args
}

// afterWord drops leading flags and then the first argument when it is one
// of words (a subcommand such as "run").
func afterWord(args []string, words ...string) []string {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		i++
	}
	for _, w := range words {
		if i < len(args) && args[i] == w {
			return args[i+1:]
		}
	}
	return args
}

// operandAndAfter returns args from the first operand on, skipping flags
// and the values of the flags listed in valueFlags.
func operandAndAfter(args []string, valueFlags string) []string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return args[i+1:]
		case a == RedactedValue:
			// A scrubbed flag value (--token [REDACTED]) is no operand.
		case !strings.HasPrefix(a, "-") || a == "-":
			return args[i:]
		case !strings.Contains(a, "=") && hasWord(valueFlags, a):
			i++
		}
	}
	return nil
}

// operand returns the first operand (see operandAndAfter), or "".
func operand(args []string, valueFlags string) string {
	if rest := operandAndAfter(args, valueFlags); len(rest) > 0 {
		return rest[0]
	}
	return ""
}

func hasWord(list, w string) bool {
	for _, f := range strings.Fields(list) {
		if f == w {
			return true
		}
	}
	return false
}

// packageLabel turns a package spec into its bare name:
// "@scope/server-foo@1.2" → "server-foo", "mcp-server-git==0.6" →
// "mcp-server-git", "git+https://github.com/o/repo.git" → "repo".
func packageLabel(spec string) string {
	if spec == "" {
		return ""
	}
	if strings.HasPrefix(spec, "@") {
		if _, after, ok := strings.Cut(spec, "/"); ok {
			spec = after
		}
	}
	spec = strings.TrimSuffix(strings.TrimRight(spec, "/"), ".git")
	if i := strings.LastIndexAny(spec, "/:"); i >= 0 {
		spec = spec[i+1:]
	}
	if i := strings.IndexAny(spec, "@=<>!~[;"); i > 0 {
		spec = spec[:i]
	}
	return strings.TrimSuffix(spec, ".git")
}

// pythonLabel is the module of `-m MOD` or the script's name.
func pythonLabel(args []string) string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-m" && i+1 < len(args):
			return args[i+1]
		case strings.HasPrefix(a, "-m") && len(a) > 2:
			return a[2:]
		case a == "-c":
			return ""
		case hasWord(pythonValueFlags, a):
			i++
		case !strings.HasPrefix(a, "-"):
			return scriptLabel(a)
		}
	}
	return ""
}

// scriptLabel is a script's file name without directory or extension.
func scriptLabel(p string) string {
	if p == "" || strings.HasPrefix(p, "-") {
		return ""
	}
	if strings.HasPrefix(p, "npm:") || strings.HasPrefix(p, "jsr:") {
		return packageLabel(p[4:])
	}
	base := path.Base(strings.ReplaceAll(p, `\`, "/"))
	if ext := path.Ext(base); ext != "" && ext != base {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

// buildDir reports whether dir is a name a package's entry point is
// built or kept in (dist, build, lib, out, src): the name above it is the
// package's.
func buildDir(dir string) bool {
	switch dir {
	case "dist", "build", "lib", "out", "src":
		return true
	}
	return false
}

// nodeScriptLabel names a node script: by its file name, unless that is
// an entry point's generic index or main (see DeriveLabelFiles).
func nodeScriptLabel(p string, readFile func(string) ([]byte, error)) string {
	label := scriptLabel(p)
	if label != "index" && label != "main" || strings.HasPrefix(p, "npm:") || strings.HasPrefix(p, "jsr:") {
		return label
	}
	dir := path.Dir(strings.ReplaceAll(p, `\`, "/"))
	if name := nearestPackage(dir, readFile); name != "" {
		return name
	}
	for d := dir; d != "." && d != "/" && !strings.HasSuffix(d, ":"); d = path.Dir(d) {
		if b := path.Base(d); !buildDir(b) {
			return b
		}
	}
	return label
}

// nearestPackage is the package name of the nearest package.json in dir
// or the four directories above it; "" when none is found or names none.
func nearestPackage(dir string, readFile func(string) ([]byte, error)) string {
	if readFile == nil {
		return ""
	}
	for range 5 {
		if b, err := readFile(path.Join(dir, "package.json")); err == nil {
			var pkg struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(b, &pkg) != nil {
				return ""
			}
			return packageLabel(pkg.Name)
		}
		up := path.Join(dir, "..")
		if up == dir || path.IsAbs(dir) && dir == "/" {
			break
		}
		dir = up
	}
	return ""
}

// goLabel names `go run` targets: a .go file, a package path or a module
// at a version.
func goLabel(target string) string {
	if strings.HasSuffix(target, ".go") {
		return scriptLabel(target)
	}
	target, _, _ = strings.Cut(target, "@")
	target = strings.TrimRight(target, "/")
	if target == "" || target == "." {
		return ""
	}
	return path.Base(target)
}

// imageLabel names a container image: "ghcr.io/o/github-mcp:v1" →
// "github-mcp".
func imageLabel(image string) string {
	image, _, _ = strings.Cut(image, "@")
	if i := strings.LastIndex(image, "/"); i >= 0 {
		image = image[i+1:]
	}
	image, _, _ = strings.Cut(image, ":")
	return image
}
