//go:build !windows

package stdio

import (
	"io"
	"syscall"

	"golang.org/x/sys/unix"
)

// watchHangup returns when done is closed or when the system reports that
// nobody can read what is written to w any more: the read end of a pipe
// closed (POLLERR), a socket's peer or a terminal hung up (POLLHUP). It
// reports whether it saw that. A w without a file descriptor, or a
// regular file, never hangs up.
func watchHangup(w io.Writer, done <-chan struct{}) bool {
	sc, ok := w.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	for {
		select {
		case <-done:
			return false
		default:
		}
		var revents int16
		var perr error
		// Events 0: poll reports only the error and hang-up conditions.
		cerr := rc.Control(func(fd uintptr) {
			fds := []unix.PollFd{{Fd: int32(fd)}}
			_, perr = unix.Poll(fds, int(hangupPoll.Milliseconds()))
			revents = fds[0].Revents
		})
		switch {
		case cerr != nil, perr != nil && perr != unix.EINTR, revents&unix.POLLNVAL != 0:
			return false
		case revents&(unix.POLLERR|unix.POLLHUP) != 0:
			return true
		}
	}
}
