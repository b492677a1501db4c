// Command stubborn is a server that is hard to stop, for mcptrail's
// process-lifecycle tests. By default it reads stdin until EOF and exits 0.
//
//	-pidfile FILE  write its pid to FILE first
//	-ready         then write "ready\n" to stdout
//	-ignore        ignore SIGINT, SIGTERM and SIGHUP
//	-hold          keep running after stdin's EOF
//	-flood         write "y\n" to stdout as fast as it can, like yes(1),
//	               until a write fails
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

func main() {
	os.Exit(run())
}

func run() int {
	pidfile := flag.String("pidfile", "", "write the pid to this file")
	ready := flag.Bool("ready", false, "write ready to stdout")
	ignore := flag.Bool("ignore", false, "ignore SIGINT, SIGTERM and SIGHUP")
	hold := flag.Bool("hold", false, "keep running after stdin's EOF")
	flood := flag.Bool("flood", false, "write y lines to stdout until a write fails")
	flag.Parse()

	if *ignore {
		signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	}
	if *pidfile != "" {
		if err := os.WriteFile(*pidfile, []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, "stubborn:", err)
			return 1
		}
	}
	if *ready {
		fmt.Fprint(os.Stdout, "ready\n")
	}
	if *flood {
		buf := bytes.Repeat([]byte("y\n"), 4096)
		for {
			if _, err := os.Stdout.Write(buf); err != nil {
				return 1
			}
		}
	}
	if _, err := io.Copy(io.Discard, os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, "stubborn:", err)
	}
	for *hold {
		time.Sleep(time.Hour)
	}
	return 0
}
