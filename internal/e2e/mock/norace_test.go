//go:build !race

package mock_test

// raceBuild reports whether the tests run with -race.
const raceBuild = false
