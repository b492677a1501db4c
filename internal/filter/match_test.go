package filter

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestMatch(t *testing.T) {
	t.Parallel()
	call := &Item{Target: "get weather", Method: "tools/call", IDs: []string{"7", `"op-1"`}, Dir: "c2s",
		Status: "tool-error", Era: "modern", Rules: []string{"late-response", "id-reused"},
		Duration: 600 * time.Millisecond, DurationKnown: true, Message: "City Not Found"}
	elicit := &Item{Method: "elicitation/create", IDs: []string{"3", `"op-1"`}, Dir: "s2c", Status: "pending",
		Era: "legacy", Elicit: []string{"decline", "pending"}}
	note := &Item{Method: "notifications/progress", Dir: "s2c", Message: "50%"}
	items := map[string]*Item{"call": call, "elicit": elicit, "note": note}
	for _, tc := range []struct {
		filter string
		want   []string // the names of the matching items, sorted
	}{
		{"", []string{"call", "elicit", "note"}},
		{"tool:get", nil},
		{`tool:"get weather"`, []string{"call"}},
		{"tool:get*", []string{"call"}},
		{"tool:*weath*", []string{"call"}},
		{"!tool:get*", []string{"elicit", "note"}},
		{"tool:*", []string{"call", "elicit", "note"}}, // "*" also matches an empty target
		{"method:tools/call", []string{"call"}},
		{"method:*/c*", []string{"call", "elicit"}},
		{"method:notifications/*", []string{"note"}},
		{"!method:notifications/*", []string{"call", "elicit"}},
		{"id:7", []string{"call"}},
		{"id:op-1", []string{"call", "elicit"}},
		{`id:"\"op-1\""`, []string{"call", "elicit"}},
		{"id:op", nil},
		{"dir:s2c", []string{"elicit", "note"}},
		{"status:tool-error", []string{"call"}},
		{"!status:pending", []string{"call", "note"}},
		{"era:legacy", []string{"elicit"}},
		{"elicit:decline", []string{"elicit"}},
		{"elicit:accept", nil},
		{"rule:id-reused", []string{"call"}},
		{"rule:late-*", []string{"call"}},
		{"rule:*", []string{"call"}},
		{"slow:>500ms", []string{"call"}},
		{"slow:>600", nil},
		{"slow:>=600", []string{"call"}},
		{"slow:<1s", []string{"call"}},
		{"slow:<=0.6s", []string{"call"}},
		{"!slow:>500ms", []string{"elicit", "note"}},
		{"weather", []string{"call"}},
		{"not found", []string{"call"}},
		{"not lost", nil},
		{`"not found"`, []string{"call"}},
		{"CREATE", []string{"elicit"}},
		{"50%", []string{"note"}},
		{"!weather", []string{"elicit", "note"}},
		{"dir:s2c !elicit:pending", []string{"note"}},
		{"id:op-1 method:tools/*", []string{"call"}},
		{"id:op-1 method:tools/* era:legacy", nil},
	} {
		t.Run(tc.filter, func(t *testing.T) {
			t.Parallel()
			f, err := Parse(tc.filter)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tc.filter, err)
			}
			var got []string
			for _, name := range []string{"call", "elicit", "note"} {
				if f.Match(items[name]) {
					got = append(got, name)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%q matches (-want +got):\n%s", tc.filter, diff)
			}
		})
	}
}

func TestNilFilterMatches(t *testing.T) {
	t.Parallel()
	var f *Filter
	if !f.Match(&Item{}) {
		t.Error("a nil Filter matches nothing, want everything")
	}
}

func TestSyntaxErrorIsTyped(t *testing.T) {
	t.Parallel()
	_, err := Parse("ok status:nope")
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("Parse error %v is not a *SyntaxError", err)
	}
	want := &SyntaxError{Term: `status:"nope"`, Column: 11, Msg: "want one of ok, error, tool-error, input-required, pending, cancelled, late"}
	if diff := cmp.Diff(want, se); diff != "" {
		t.Errorf("SyntaxError (-want +got):\n%s", diff)
	}
}

func TestGlob(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pattern, s string
		want       bool
	}{
		{"abc", "abc", true},
		{"abc", "abcd", false},
		{"*", "", true},
		{"a*", "a", true},
		{"*c", "abc", true},
		{"a*c", "ac", true},
		{"a*b*c", "aXbYc", true},
		{"a*b*c", "acb", false},
		{"ab*ba", "aba", false},
		{"**", "x", true},
	} {
		if got := glob(tc.pattern, tc.s); got != tc.want {
			t.Errorf("glob(%q, %q) = %v, want %v", tc.pattern, tc.s, got, tc.want)
		}
	}
}

func TestMatchLate(t *testing.T) {
	t.Parallel()
	late := &Item{Method: "tools/call", Dir: "c2s", Status: "ok", Late: true}
	onTime := &Item{Method: "tools/call", Dir: "c2s", Status: "ok"}
	for _, tc := range []struct {
		filter       string
		late, onTime bool
	}{
		{"status:late", true, false},
		{"status:ok", true, true},
		{"!status:late", false, true},
	} {
		f, err := Parse(tc.filter)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Match(late); got != tc.late {
			t.Errorf("%q matches the late call: %v, want %v", tc.filter, got, tc.late)
		}
		if got := f.Match(onTime); got != tc.onTime {
			t.Errorf("%q matches the call on time: %v, want %v", tc.filter, got, tc.onTime)
		}
	}
}
