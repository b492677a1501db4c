package finding

import (
	"regexp"
	"testing"
)

func TestRegistry(t *testing.T) {
	t.Parallel()
	kebab := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	rules := Rules()
	if len(rules) < 20 {
		t.Fatalf("registry has %d rules, want at least 20", len(rules))
	}
	for i, r := range rules {
		if !kebab.MatchString(r.ID) {
			t.Errorf("rule id %q is not kebab-case", r.ID)
		}
		if i > 0 && rules[i-1].ID >= r.ID {
			t.Errorf("rules not sorted and unique at %q", r.ID)
		}
		switch r.Severity {
		case Error, Warning, Info:
		default:
			t.Errorf("rule %s has severity %q", r.ID, r.Severity)
		}
		if r.Summary == "" {
			t.Errorf("rule %s has no summary", r.ID)
		}
		if got, ok := Lookup(r.ID); !ok || got != r {
			t.Errorf("Lookup(%q) = %v, %v", r.ID, got, ok)
		}
	}
}

func TestNew(t *testing.T) {
	t.Parallel()
	f := New(LateResult, 42, "id %d answered late", 7)
	want := Finding{Rule: "late-result", Severity: Warning, Seq: 42, Message: "id 7 answered late"}
	if f != want {
		t.Errorf("New = %+v, want %+v", f, want)
	}
	defer func() {
		if recover() == nil {
			t.Error("New with an unregistered id did not panic")
		}
	}()
	New("no-such-rule", 0, "")
}
