package check

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"unicode"
)

// A fingerprint is the first 16 bytes, in hex, of the SHA-256 of
//
//	rule id NUL call NUL normalised message NUL occurrence
//
// where call is Item.Call ("tools/call create_account"), the normalised
// message is the message with every word that holds a digit, and the word
// after "id", replaced by "#" (so seqs, JSON-RPC ids, durations, counts,
// times and session ids drop out), and occurrence counts the earlier
// items of the same session with the same rule, call and normalised
// message (0 for the first). The same problem in another capture of the
// same scenario therefore gets the same fingerprint; the file, the line
// and the session do not enter it. docs/check.md says the same.

// fingerprinter numbers the occurrences of each key within one session.
type fingerprinter struct {
	seen map[string]int
}

// next returns it's fingerprint.
func (fp *fingerprinter) next(it *Item) string {
	if fp.seen == nil {
		fp.seen = map[string]int{}
	}
	key := it.Rule + "\x00" + it.Call + "\x00" + normalize(it.Message)
	n := fp.seen[key]
	fp.seen[key] = n + 1
	sum := sha256.Sum256([]byte(key + "\x00" + strconv.Itoa(n)))
	return hex.EncodeToString(sum[:16])
}

// normalize replaces the words of msg that vary between runs with "#".
func normalize(msg string) string {
	words := strings.Fields(msg)
	for i, w := range words {
		after := i > 0 && strings.EqualFold(strings.Trim(words[i-1], `"'(),:;`), "id")
		if after || strings.IndexFunc(w, unicode.IsDigit) >= 0 {
			words[i] = "#"
		}
	}
	return strings.Join(words, " ")
}
