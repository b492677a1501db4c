//go:build race

package real_test

// raceBuild reports whether the tests run with -race; TestMain then builds
// mcptrail with -race too.
const raceBuild = true
