package diff

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mcptrail/mcptrail/internal/store"
)

// compareLedgers pairs the questions of two ledgers and lists those asked
// by one side only, then those asked or answered differently, in a's
// order (b's new questions where they fall in b). It reads the rows'
// questions and outcomes only: a row holds no answer's value.
func compareLedgers(a, b []store.LedgerRow) []QuestionDelta {
	ka, kb := questionKeys(a), questionKeys(b)
	queue := map[string][]int{}
	for j, k := range kb {
		queue[k] = append(queue[k], j)
	}
	matched := make([]bool, len(b))
	var out []QuestionDelta
	for i, k := range ka {
		q := queue[k]
		if len(q) == 0 {
			out = append(out, question(&a[i], QuestionRemoved))
			continue
		}
		j := q[0]
		queue[k] = q[1:]
		matched[j] = true
		if changes := compareQuestion(&a[i], &b[j]); len(changes) > 0 {
			d := question(&b[j], QuestionChanged)
			d.Changes = changes
			out = append(out, d)
		}
	}
	for j := range b {
		if !matched[j] {
			out = append(out, question(&b[j], QuestionAdded))
		}
	}
	return out
}

// questionKeys returns each row's identity: its call's method and target,
// the rank of that call among the session's calls of the same method and
// target that asked something, and the row's key or, for a row without
// one, its rank among the call's keyless rows.
func questionKeys(rows []store.LedgerRow) []string {
	out := make([]string, len(rows))
	ranks := map[string]map[int]int{} // method+target → call index → rank
	keyless := map[string]int{}       // call identity → keyless rows so far
	for i := range rows {
		r := &rows[i]
		mt := r.Root.Method + "\x00" + r.Root.Target
		if ranks[mt] == nil {
			ranks[mt] = map[int]int{}
		}
		rank, ok := ranks[mt][r.Root.Call]
		if !ok {
			rank = len(ranks[mt])
			ranks[mt][r.Root.Call] = rank
		}
		call := mt + "\x00" + strconv.Itoa(rank)
		k := r.Key
		if k == "" {
			k = "#" + strconv.Itoa(keyless[call])
			keyless[call]++
		}
		out[i] = call + "\x00" + k
	}
	return out
}

func question(r *store.LedgerRow, change string) QuestionDelta {
	return QuestionDelta{Method: r.Root.Method, Target: r.Root.Target, Key: r.Key, Change: change, Message: r.Message}
}

// compareQuestion lists how b's question and outcome differ from a's.
func compareQuestion(a, b *store.LedgerRow) []Change {
	var out []Change
	for _, c := range []Change{
		{What: ChangeMessage, Old: a.Message, New: b.Message},
		{What: ChangeMode, Old: a.Mode, New: b.Mode},
		{What: ChangeHost, Old: a.Host, New: b.Host},
		{What: ChangeStatus, Old: a.Status, New: b.Status},
		{What: ChangeAction, Old: a.Action, New: b.Action},
	} {
		if c.Old != c.New {
			out = append(out, c)
		}
	}
	return append(out, compareFields(a.Fields, b.Fields)...)
}

// compareFields lists the form fields added, removed or declared
// differently.
func compareFields(a, b []store.LedgerField) []Change {
	var out []Change
	for _, fa := range a {
		i := slices.IndexFunc(b, func(f store.LedgerField) bool { return f.Name == fa.Name })
		if i < 0 {
			out = append(out, Change{What: ChangeNoField, Field: fa.Name, Old: fa.Type})
			continue
		}
		fb := b[i]
		if fa.Type != fb.Type {
			out = append(out, Change{What: ChangeType, Field: fa.Name, Old: fa.Type, New: fb.Type})
		}
		if fa.Required != fb.Required {
			out = append(out, Change{What: ChangeRequired, Field: fa.Name,
				Old: strconv.FormatBool(fa.Required), New: strconv.FormatBool(fb.Required)})
		}
		if !slices.Equal(fa.Options, fb.Options) {
			out = append(out, Change{What: ChangeOptions, Field: fa.Name,
				Old: strings.Join(fa.Options, ", "), New: strings.Join(fb.Options, ", ")})
		}
	}
	for _, fb := range b {
		if !slices.ContainsFunc(a, func(f store.LedgerField) bool { return f.Name == fb.Name }) {
			out = append(out, Change{What: ChangeField, Field: fb.Name, New: fb.Type})
		}
	}
	return out
}
