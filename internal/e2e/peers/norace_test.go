//go:build !race

package peers_test

// raceBuild reports whether the tests run with -race.
const raceBuild = false
