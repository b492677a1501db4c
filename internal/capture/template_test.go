package capture

import (
	"errors"
	"testing"
	"time"
)

// TestExpandPathFields: no field value adds or climbs a directory.
func TestExpandPathFields(t *testing.T) {
	t.Parallel()
	got, err := ExpandPath("caps/{label}/{id}/{label}.jsonl", &PathFields{Start: time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC), Label: "..", ID: "../../x", PID: 7})
	if err != nil {
		t.Fatal(err)
	}
	if want := "caps/_./_._.._x/_..jsonl"; got != want {
		t.Errorf("expanded to %q, want %q", got, want)
	}
}

// TestExpandPathErrors: an unclosed { and an unknown field are template
// errors naming what is wrong.
func TestExpandPathErrors(t *testing.T) {
	t.Parallel()
	for tmpl, want := range map[string]string{
		"caps/{label":       "unclosed { (fields: {time}, {label}, {pid}, {id})",
		"caps/{host}.jsonl": "unknown field {host} (fields: {time}, {label}, {pid}, {id})",
	} {
		_, err := ExpandPath(tmpl, &PathFields{})
		var te *TemplateError
		if !errors.As(err, &te) || err.Error() != want {
			t.Errorf("ExpandPath(%q) = %v, want the template error %q", tmpl, err, want)
		}
	}
}
