//go:build !race

package nodestdio_test

// raceBuild reports whether the tests run with -race.
const raceBuild = false
