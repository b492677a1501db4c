package stdio

import "syscall"

// sysProcAttr makes the kernel send the server SIGKILL when mcptrail dies,
// even by kill -9, so no server outlives its proxy. (The signal follows
// the thread that started the server; Go does not end threads that are
// not locked, so in practice it follows the process.)
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
