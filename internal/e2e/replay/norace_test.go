//go:build !race

package replay_test

// raceBuild reports whether the tests run with -race.
const raceBuild = false
