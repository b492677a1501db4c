//go:build !unix

package clientconfig

import "io/fs"

// links is the number of hard links of the file fi describes; this
// system's file information does not say, so 1.
func links(fi fs.FileInfo) uint64 {
	return 1
}
