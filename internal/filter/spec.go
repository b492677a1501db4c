package filter

// Keys returns the keys a term may have, in the order errors name them
// (other filter bars, such as the HTML report's, read the language from
// here so that there is one source).
func Keys() []string { return keys() }

// Enums returns the values key accepts when its set is closed, nil when
// any value is accepted.
func Enums(key string) []string { return enums(key) }
