// Package wine adapts a Windows test binary to running under Wine, where
// .ci/run runs the tests of the packages with OS-specific code. It serves
// tests only, and only in a build with the tag wine (GOOS=windows go test
// -tags wine -ldflags=-checklinkname=0); elsewhere it is empty.
//
// Wine 8 refuses FILE_DISPOSITION_POSIX_SEMANTICS deletes with "Invalid
// function", so os.RemoveAll, and with it every t.TempDir cleanup, fails
// there. Go's runtime keeps a fallback to the classic delete for Windows
// versions and file systems without them; this package turns it on. Real
// Windows (10 1607 and later) takes the POSIX path, which the other CI
// builds exercise through the same os functions.
//
// A package's test opts in with a file tagged windows && wine that imports
// this one for its side effect.
package wine
