package filter

// Kind says how a key's value is read and matched.
type Kind string

// The kinds of value a key takes.
const (
	// KindGlob is a pattern where "*" stands for any run of characters.
	KindGlob Kind = "glob"
	// KindID is a JSON-RPC id, as typed or without a string id's quotes.
	KindID Kind = "id"
	// KindEnum is one of the key's Values, in any case.
	KindEnum Kind = "enum"
	// KindDuration is a comparison and a duration (slow:>500ms).
	KindDuration Kind = "duration"
)

// Key is one key of the language: the name typed before the colon, the
// kind of its value and, for an enum, the values it accepts.
type Key struct {
	// Name is the key as typed, lower case.
	Name string
	// Kind is how the value is read.
	Kind Kind
	// Values lists the values of a KindEnum key, in the order errors name
	// them; nil for the other kinds.
	Values []string
	// Doc says what the key matches, as the docs' table shows it.
	Doc string
}

// Spec returns the language's keys, in the order errors name them. It is
// the one definition: the parser checks terms against it, the HTML report
// ships it to the page's script (report-data's "filter" member), and
// docs/filter.md's table is generated from it.
func Spec() []Key {
	return []Key{
		{Name: "tool", Kind: KindGlob, Doc: "the tool name, prompt name or resource uri"},
		{Name: "method", Kind: KindGlob, Doc: "the JSON-RPC method (`method:tools/*`)"},
		{Name: "id", Kind: KindID, Doc: "the call's JSON-RPC id, or its operation's root id"},
		{Name: "dir", Kind: KindEnum, Values: []string{"c2s", "s2c"}, Doc: "the request's direction"},
		{Name: "status", Kind: KindEnum,
			Values: []string{"ok", "error", "tool-error", "input-required", "pending", "cancelled", "late"},
			Doc:    "the call's status; `late` also matches an answer that came after its cancellation"},
		{Name: "era", Kind: KindEnum, Values: []string{"modern", "legacy"}, Doc: "the call's protocol era"},
		{Name: "elicit", Kind: KindEnum,
			Values: []string{"accept", "decline", "cancel", "pending", "required", "error", "form", "url", "app"},
			Doc:    "a ledger row of the call whose outcome (its answer's action, else its status) or whose mode is the value (`app`: a form an MCP App renders)"},
		{Name: "rule", Kind: KindGlob, Doc: "the rule id of a finding on the call"},
		{Name: "slow", Kind: KindDuration,
			Doc: "the call's duration; a call not yet answered has none, so only `!slow:` matches it"},
	}
}

// Keys returns the names of Spec's keys, in order.
func Keys() []string {
	spec := Spec()
	out := make([]string, len(spec))
	for i, k := range spec {
		out[i] = k.Name
	}
	return out
}

// Enums returns the values key accepts when its set is closed, nil when
// any value is accepted or key is unknown.
func Enums(key string) []string {
	for _, k := range Spec() {
		if k.Name == key {
			return k.Values
		}
	}
	return nil
}

// lookup returns the Key named name.
func lookup(name string) (Key, bool) {
	for _, k := range Spec() {
		if k.Name == name {
			return k, true
		}
	}
	return Key{}, false
}
