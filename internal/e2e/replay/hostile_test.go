package replay_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// rewrite writes a copy of the capture at src, with edit applied to its
// lines (without their newlines), into the test's directory.
func rewrite(t *testing.T, src string, edit func([]string) string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	out := filepath.Join(t.TempDir(), "hostile.jsonl")
	if err := os.WriteFile(out, []byte(edit(lines)), 0o600); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestReplayHostileCaptures replays damaged and strange captures: each
// ends with a clear message and a known status, never a hang.
func TestReplayHostileCaptures(t *testing.T) {
	t.Parallel()
	modern := recording(t, false)
	idMember := regexp.MustCompile(`"id":\d+`) // a JSON-RPC id member of a frame
	join := func(ls []string) string { return strings.Join(ls, "\n") + "\n" }
	cases := []struct {
		name   string
		edit   func([]string) string
		code   int
		stderr string // a part of stderr
		stdout string // a part of stdout
	}{{
		name: "torn-last-line",
		edit: func(ls []string) string {
			last := ls[len(ls)-1]
			return join(ls[:len(ls)-1]) + last[:len(last)/2]
		},
		code: 0, stderr: "is damaged: torn last line",
	}, {
		name: "corrupt-line-inside",
		edit: func(ls []string) string {
			return join(append([]string{ls[0], ls[1], `{"type":"frame","seq":`}, ls[2:]...))
		},
		code: 0, stderr: "is damaged: 1 corrupt line;",
	}, {
		name: "invalid-client-frame",
		edit: func(ls []string) string {
			bad := `{"type":"frame","seq":1000,"time":"2026-07-28T09:30:00Z","dir":"c2s","size":16,"text":"this is not json"}`
			return join(append([]string{ls[0], bad}, ls[1:]...))
		},
		code: 0,
	}, {
		name: "ids-reused",
		edit: func(ls []string) string {
			for i, l := range ls {
				ls[i] = idMember.ReplaceAllString(l, `"id":7`)
			}
			return join(ls)
		},
		code: 0,
	}, {
		name:   "not-a-capture",
		edit:   func([]string) string { return "hello\nworld\n" },
		code:   3,
		stderr: "not an mcptrail capture",
	}, {
		name:   "no-client-request",
		edit:   func(ls []string) string { return join(ls[:1]) },
		code:   3,
		stderr: "holds no client request to replay",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := runReplay(t, rewrite(t, modern, tc.edit), "--slower-than", "0", "--", bins.sdkserver)
			if o.code != tc.code || !strings.Contains(o.stderr, tc.stderr) || !strings.Contains(o.stdout, tc.stdout) {
				t.Errorf("replay exited %d, want %d with %q on stderr and %q on stdout\nstdout:\n%s\nstderr:\n%s",
					o.code, tc.code, tc.stderr, tc.stdout, o.stdout, o.stderr)
			}
		})
	}
}
