//go:build !race

package real_test

// raceBuild reports whether the tests run with -race.
const raceBuild = false
