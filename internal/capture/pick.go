package capture

import (
	"path/filepath"
	"strings"
)

// PrefixError is a session id prefix that names no session, or more than
// one, among the sessions searched.
type PrefixError struct {
	// Prefix is the session id prefix looked for.
	Prefix string
	// Matches are the ids of the sessions it names, in the order
	// searched; none when it names no session.
	Matches []string
}

// Error says how many sessions the prefix names.
func (e *PrefixError) Error() string {
	if len(e.Matches) == 0 {
		return "no session " + quote(e.Prefix)
	}
	return "session prefix " + quote(e.Prefix) + " is ambiguous"
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// PickSession returns the session of idx (a file's sessions, oldest
// first) whose id starts with want: the last session when want is "". A
// prefix that names no session, or several, is a *PrefixError.
func PickSession(idx []Session, want string) (*Session, error) {
	if want == "" {
		if len(idx) == 0 {
			return nil, &PrefixError{}
		}
		return &idx[len(idx)-1], nil
	}
	var found *Session
	var ids []string
	for i := range idx {
		if strings.HasPrefix(idx[i].Header.SessionID, want) {
			found = &idx[i]
			ids = append(ids, idx[i].Header.SessionID)
		}
	}
	if len(ids) != 1 {
		return nil, &PrefixError{Prefix: want, Matches: ids}
	}
	return found, nil
}

// SessionFileID returns the session id part of a session file's name
// (START-LABEL-ID.jsonl, as CreateSessionFile names it).
func SessionFileID(path string) string {
	name := strings.TrimSuffix(filepath.Base(path), Ext)
	return name[strings.LastIndexByte(name, '-')+1:]
}
