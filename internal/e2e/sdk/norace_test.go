//go:build !race

package sdk_test

// raceBuild reports whether the tests run with -race.
const raceBuild = false
