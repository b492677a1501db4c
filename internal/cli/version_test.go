package cli

import (
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
				Revision: "0123abcd", Time: "2026-11-30T12:00:00Z", Modified: "false"},
			want: "mcptrail 1.2.3\ngo: go1.26.0\nplatform: linux/amd64\nmodule: github.com/mcptrail/mcptrail v1.2.3\n" +
				"revision: 0123abcd\ntime: 2026-11-30T12:00:00Z\nmodified: false\n",
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
