// Package buildinfo holds what a release build stamps into the binary with
// the linker: the version, the source commit and the build date
// (.goreleaser.yaml passes
// -X github.com/mcptrail/mcptrail/internal/buildinfo.version=… and the
// same for commit and date). It sits at the bottom of the import graph and
// imports nothing; internal/cli reads it for `mcptrail version` and the
// capture headers, and falls back to what the Go toolchain recorded
// (runtime/debug.ReadBuildInfo) for a `go install` or `go build`.
//
// Its variables are the linker's to set: no code assigns them, so reading
// them is safe from any goroutine.
package buildinfo

// Set by -ldflags -X only; empty in a build that was not stamped.
var (
	version string
	commit  string
	date    string
)

// Stamped returns the version, commit and date the linker stamped, each
// empty when it was not.
func Stamped() (v, c, d string) {
	return version, commit, date
}
