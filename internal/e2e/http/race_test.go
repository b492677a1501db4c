//go:build race

package http_test

// raceBuild builds mcptrail with the race detector when the tests run with it.
const raceBuild = true
