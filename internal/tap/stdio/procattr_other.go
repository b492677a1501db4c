//go:build !linux

package stdio

import "syscall"

// sysProcAttr is nil where there is no parent-death signal. On macOS and
// the BSDs a server whose proxy was killed sees EOF on its stdin (mcptrail
// held the only write end) and, if well behaved, exits; on Windows the job
// object (process_windows.go) ends the server's process tree.
func sysProcAttr() *syscall.SysProcAttr { return nil }
