//go:build windows && wine

package wine

import _ "unsafe" // for go:linkname

// deleteatFallback is the runtime's own switch for the classic delete
// (internal/syscall/windows.TestDeleteatFallback); linking to it needs
// -ldflags=-checklinkname=0.
//
//go:linkname deleteatFallback internal/syscall/windows.TestDeleteatFallback
var deleteatFallback bool

func init() { deleteatFallback = true }
