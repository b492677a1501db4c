package store

// interner shares one copy of the strings that repeat across calls (method
// names, tool names, protocol versions), so that a large session does not
// hold one copy per call. It stops adding strings at a bound, so a session
// of unique names costs no more than without it.
type interner struct {
	m map[string]string
}

// maxInterned bounds the interner's table.
const maxInterned = 4096

// intern returns s, or an equal string already held.
func (in *interner) intern(s string) string {
	if s == "" {
		return ""
	}
	if v, ok := in.m[s]; ok {
		return v
	}
	if len(in.m) < maxInterned {
		if in.m == nil {
			in.m = make(map[string]string)
		}
		in.m[s] = s
	}
	return s
}
