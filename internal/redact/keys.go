package redact

import (
	"encoding/binary"
	"strings"
)

// SecretKeys returns the Secrets preset: common names of members that hold
// credentials, lower-case (keys match ignoring case, - read as _, and as
// the last word of a longer name: see keySet). Besides these, a name whose
// last word is key (GITHUB_DEPLOY_KEY, aws_secret_access_key) is secret
// under the preset.
func SecretKeys() []string {
	return append([]string{
		"token", "access_token", "accesstoken", "refresh_token", "refreshtoken",
		"id_token", "idtoken", "auth_token", "authtoken", "session_token", "sessiontoken",
		"api_key", "apikey", "api-key", "x-api-key",
		"password", "passwd", "passphrase",
		"secret", "client_secret", "clientsecret", "secret_key", "secretkey",
		"private_key", "privatekey",
		"authorization", "proxy-authorization", "cookie", "set-cookie", "credentials",
		"dpop", // the DPoP proof header (RFC 9449), kept by the tap without its signature
	}, oauthSecrets()...)
}

// secretWords are the last words that make a name secret under the preset
// without being secret names on their own (a member called key is a map
// key as often as a credential).
func secretWords() []string { return []string{"key"} }

// OAuthCredentials returns the OAuth parameters and JSON members that
// carry a credential (RFC 6749, 7636, 7521/7523, 8693, 7591/7592): the
// names an HTTP exchange record never holds the value of, with or without
// redaction rules. They are matched exactly, not as last words: code and
// assertion are too common for that, which is why the Secrets preset takes
// the others only.
func OAuthCredentials() []string {
	return append([]string{"code", "assertion"}, oauthSecrets()...)
}

// oauthSecrets are the OAuth credentials the Secrets preset holds too.
func oauthSecrets() []string {
	return []string{
		"access_token", "refresh_token", "id_token", "code_verifier", "client_secret",
		"client_assertion", "subject_token", "actor_token",
		"registration_access_token", "initial_access_token", "software_statement",
	}
}

// keySet is the one name matcher of key rules, for JSON members, text
// forms, flags, variables and headers alike. A name matches when,
// lower-cased with - read as _, it equals a key, or its last word does: the
// words of a name are separated by _ or - (GITHUB_TOKEN and github-token
// end in token; max_tokens and monkey do not). camelCase humps do not
// separate words: the protocol's own progressToken is no secret. A word
// (key) matches as a last word only.
// Case is folded as strings.EqualFold folds it, so a name spelled with
// the Kelvin sign for k matches too.
type keySet struct {
	// names maps each key and word, lower-case with - read as _, to
	// whether it matches a whole name (a word does not).
	names  map[string]bool
	minLen int // bytes of the shortest key or word
	maxLen int // bytes of the longest
	lasts  uint64
	wide   bool // a key holds a byte beyond ASCII
	// suffixes has the bit (suffixHash) of every last four bytes a
	// matching name may end in: a key's last four (- and _ either way), or
	// a separator and a three-byte word. hashed is false when that does
	// not decide (a key beyond ASCII, a whole-name key under four bytes, a
	// word under three), and the bits are unused.
	suffixes [16]uint64
	hashed   bool
}

// newKeySet returns the set of keys and words; no key may be empty.
func newKeySet(keys, words []string) keySet {
	k := keySet{names: make(map[string]bool, len(keys)+len(words)), minLen: 1 << 30}
	add := func(s string, whole bool) {
		n := normal(s)
		k.names[n] = k.names[n] || whole
		k.minLen, k.maxLen = min(k.minLen, len(n)), max(k.maxLen, len(n))
		k.lasts |= lastBit(n[len(n)-1])
		if n[len(n)-1] == '_' {
			k.lasts |= lastBit('-')
		}
		k.wide = k.wide || !isASCII(n)
	}
	for _, s := range keys {
		add(s, true)
	}
	for _, s := range words {
		add(s, false)
	}
	k.hashed = k.addSuffixes()
	return k
}

// addSuffixes fills k.suffixes and reports whether they decide.
func (k *keySet) addSuffixes() bool {
	if k.wide {
		return false
	}
	for n, whole := range k.names {
		switch {
		case len(n) >= 4:
			addSuffix(&k.suffixes, n[len(n)-4:])
		case len(n) == 3 && !whole:
			addSuffix(&k.suffixes, "_"+n)
		default:
			return false
		}
	}
	return true
}

// addSuffix sets the bits of four bytes, each - or _ in them read either
// way.
func addSuffix(bits *[16]uint64, tail string) {
	b := []byte(tail)
	var seps []int
	for i, c := range b {
		if c == '-' || c == '_' {
			seps = append(seps, i)
		}
	}
	for m := 0; m < 1<<len(seps); m++ {
		for j, i := range seps {
			b[i] = "_-"[m>>j&1]
		}
		h := suffixHash(binary.LittleEndian.Uint32(b) | 0x20202020)
		bits[h/64] |= 1 << (h % 64)
	}
}

// normal is s lower-cased with - read as _.
func normal(s string) string { return strings.ReplaceAll(strings.ToLower(s), "-", "_") }

// lastBit is the bit of a name's last byte, folded as scanPlain folds.
func lastBit(c byte) uint64 { return 1 << ((c | 0x20) & 63) }

// empty reports whether the set holds no key.
func (k *keySet) empty() bool { return len(k.names) == 0 }

// match reports whether a member name is a key (see keySet).
func (k *keySet) match(name []byte) bool {
	n := len(name)
	if n < k.minLen || len(k.names) == 0 {
		return false
	}
	if k.wide || !isASCII(string(name)) {
		return k.matchWide(string(name))
	}
	if k.lasts&lastBit(name[n-1]) == 0 {
		return false
	}
	if k.hashed {
		if n < 4 {
			return false
		}
		if h := suffixHash(binary.LittleEndian.Uint32(name[n-4:]) | 0x20202020); k.suffixes[h/64]&(1<<(h%64)) == 0 {
			return false
		}
	}
	// Only the last maxLen bytes can be a key, and the byte before them
	// tells whether a word starts there.
	start := max(0, n-k.maxLen-1)
	var buf [64]byte
	lower := buf[:0]
	for _, c := range name[start:] {
		switch {
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case c == '-':
			c = '_'
		}
		lower = append(lower, c)
	}
	if start == 0 && k.names[string(lower)] {
		return true
	}
	for i := max(1, n-k.maxLen); i < n; i++ {
		if !wordStart(name, i) {
			continue
		}
		if _, ok := k.names[string(lower[i-start:])]; ok {
			return true
		}
	}
	return false
}

// wordStart reports whether a word of the name starts at name[i] (i > 0):
// after _ or -.
func wordStart(name []byte, i int) bool { return name[i-1] == '_' || name[i-1] == '-' }

// matchWide is match for a name or a key beyond ASCII: words start as in
// wordStart (separators are ASCII) and compare with strings.EqualFold.
func (k *keySet) matchWide(name string) bool {
	if k.equalFold(name, true) {
		return true
	}
	for i := max(1, len(name)-3*k.maxLen); i < len(name); i++ {
		if (name[i-1] == '_' || name[i-1] == '-') && k.equalFold(name[i:], false) {
			return true
		}
	}
	return false
}

// equalFold reports whether s, - read as _, equals a key ignoring case;
// whole says s is the whole name, which a word does not match.
func (k *keySet) equalFold(s string, whole bool) bool {
	if len(s) > 3*k.maxLen {
		return false
	}
	s = strings.ReplaceAll(s, "-", "_")
	if w, ok := k.names[strings.ToLower(s)]; ok && (w || !whole) {
		return true
	}
	for key, w := range k.names {
		if (w || !whole) && strings.EqualFold(key, s) {
			return true
		}
	}
	return false
}

// matchString is match for a name in text: a flag, a variable, a header
// or the name of a name=value form. A name holding white space or a slash
// is none of those.
func (k *keySet) matchString(name string) bool {
	if name == "" || strings.ContainsAny(name, " \t/") {
		return false
	}
	return k.match([]byte(name))
}
