package testbin

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestEvilForms: each form of the hostile text keeps what its carrier
// can carry and drops only what it cannot.
func TestEvilForms(t *testing.T) {
	t.Parallel()
	if utf8.ValidString(Evil) || !utf8.ValidString(EvilUTF8) {
		t.Error("Evil must hold invalid UTF-8 and EvilUTF8 none")
	}
	if strings.ContainsAny(EvilLine, "\x00\n") || strings.ContainsAny(EvilName, "\x00\n/") {
		t.Errorf("EvilLine %q or EvilName %q holds what its carrier cannot", EvilLine, EvilName)
	}
	if !strings.Contains(EvilLine, "\x1b]0;pwned\x07") || !strings.Contains(EvilName, "\x9b") {
		t.Error("EvilLine or EvilName lost the hostile sequences")
	}
	if got := JSONString("a\"\\\x1b\x00\u202e"); got != `"a\"\\\u001b\u0000`+"\u202e\"" {
		t.Errorf("JSONString = %q", got)
	}
}
