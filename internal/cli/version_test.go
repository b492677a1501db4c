package cli

import (
	"runtime/debug"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBuildFactsText checks the lines of `mcptrail version` for a build
// with vcs facts (which the test binary, built with -buildvcs=false in CI,
// may lack) and without them.
func TestBuildFactsText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		facts buildFacts
		want  string
	}{
		{
			name: "vcs",
			facts: buildFacts{Version: "1.2.3", Go: "go1.26.0", Platform: "linux/amd64",
				Module: "github.com/mcptrail/mcptrail", ModuleVersion: "v1.2.3",
				Commit: "0123abcd", Date: "2026-11-30T12:00:00Z", Modified: "false"},
			want: "mcptrail 1.2.3\ncommit: 0123abcd\ndate: 2026-11-30T12:00:00Z\ngo: go1.26.0\nplatform: linux/amd64\n" +
				"module: github.com/mcptrail/mcptrail v1.2.3\nmodified: false\n",
		},
		{
			name:  "no vcs, no module",
			facts: buildFacts{Version: "1.2.3", Go: "go1.26.0", Platform: "darwin/arm64"},
			want:  "mcptrail 1.2.3\ngo: go1.26.0\nplatform: darwin/arm64\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, tt.facts.text()); diff != "" {
				t.Errorf("text() (-want +got):\n%s", diff)
			}
		})
	}
}

// TestBuildFactsOf checks where the version, commit and date come from: a
// release build's stamp first, then what the toolchain recorded (a go
// install at a module version, a checkout's vcs facts), then devVersion.
func TestBuildFactsOf(t *testing.T) {
	t.Parallel()
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-01T00:00:00Z"}, {Key: "vcs.modified", Value: "false"}}
	info := func(version string, settings ...debug.BuildSetting) *debug.BuildInfo {
		return &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/mcptrail/mcptrail", Version: version}, Settings: settings}
	}
	type facts struct{ Version, Commit, Date, ModuleVersion, Modified string }
	tests := []struct {
		name                  string
		version, commit, date string
		info                  *debug.BuildInfo
		want                  facts
	}{
		{"release (stamped)", "1.4.0", "f00dcafe", "2026-12-01T00:00:00Z", info("(devel)", vcs...),
			facts{"1.4.0", "f00dcafe", "2026-12-01T00:00:00Z", "(devel)", "false"}},
		{"go install @v1.4.0", "", "", "", info("v1.4.0"), facts{"1.4.0", "", "", "v1.4.0", ""}},
		{"go install @latest, no tag", "", "", "", info("v0.0.0-20261130120000-abcdefabcdef"),
			facts{"0.0.0-20261130120000-abcdefabcdef", "", "", "v0.0.0-20261130120000-abcdefabcdef", ""}},
		{"checkout, vcs", "", "", "", info("(devel)", vcs...), facts{devVersion, "abc123", "2026-11-01T00:00:00Z", "(devel)", "false"}},
		{"checkout, dirty", "", "", "", info("v0.1.1-0.20261130120000-abcdefabcdef+dirty"),
			facts{devVersion, "", "", "v0.1.1-0.20261130120000-abcdefabcdef+dirty", ""}},
		{"no build info", "", "", "", nil, facts{Version: devVersion}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := buildFactsOf(tt.version, tt.commit, tt.date, tt.info)
			got := facts{b.Version, b.Commit, b.Date, b.ModuleVersion, b.Modified}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("buildFactsOf (-want +got):\n%s", diff)
			}
		})
	}
}
