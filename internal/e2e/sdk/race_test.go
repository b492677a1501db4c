//go:build race

package sdk_test

// raceBuild reports whether the tests run with -race; TestMain then builds
// mcptrail with -race too, so a data race in the tap under real peers fails
// the test (the race detector makes mcptrail exit non-zero).
const raceBuild = true
