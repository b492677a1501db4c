// Command fastserver is a tiny scripted MCP server for mcptrail's
// end-to-end tests and benchmarks. By default it answers every line it reads
// with a tools/call result carrying the same id, as fast as it can, and
// flushes whenever its input is momentarily drained (so it serves both
// one-at-a-time round trips and pipelined bursts well).
//
// Flags switch it into the other roles the tests need:
//
//	-record FILE  copy stdin to FILE verbatim instead of answering
//	-send FILE    write FILE to stdout verbatim (with -record, concurrently)
//	-stderr TEXT  write TEXT to stderr first
//	-ready        write "ready\n" to stdout first
//	-trap N       exit with status N on SIGTERM
//	-exit N       exit with status N at the end
//	-size N       pad each answer to N bytes, newline included (the bench's
//	              1 KiB frames)
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

func main() {
	os.Exit(run())
}

func run() int {
	record := flag.String("record", "", "copy stdin to this file")
	send := flag.String("send", "", "write this file to stdout")
	stderr := flag.String("stderr", "", "write this to stderr first")
	ready := flag.Bool("ready", false, "write ready to stdout first")
	trap := flag.Int("trap", -1, "exit with this status on SIGTERM")
	exit := flag.Int("exit", 0, "exit status")
	size := flag.Int("size", 0, "pad each answer to this many bytes")
	flag.Parse()

	if *trap >= 0 {
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, syscall.SIGTERM)
		go func() { <-sigs; os.Exit(*trap) }()
	}
	if *stderr != "" {
		fmt.Fprint(os.Stderr, *stderr)
	}
	if *ready {
		fmt.Fprint(os.Stdout, "ready\n")
	}
	var err error
	switch {
	case *record != "" || *send != "":
		err = copyFiles(*record, *send)
	default:
		err = answer(os.Stdin, os.Stdout, *size)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fastserver:", err)
		return 1
	}
	return *exit
}

// answer replies to each request line with a result of the same id,
// padded to size bytes when size is larger than the bare answer.
func answer(in io.Reader, out io.Writer, size int) error {
	br := bufio.NewReaderSize(in, 1<<20)
	bw := bufio.NewWriterSize(out, 1<<20)
	for {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 {
			if id := idOf(line); id != nil {
				const head, tail = `,"result":{"content":[{"type":"text","text":"ok`, `"}],"isError":false}}` + "\n"
				bw.WriteString(`{"jsonrpc":"2.0","id":`)
				bw.Write(id)
				bw.WriteString(head)
				for range size - (len(`{"jsonrpc":"2.0","id":`) + len(id) + len(head) + len(tail)) {
					bw.WriteByte('k')
				}
				bw.WriteString(tail)
			}
		}
		if err == bufio.ErrBufferFull {
			continue // a line longer than the buffer: skip the rest of it
		}
		if br.Buffered() == 0 || err != nil {
			if ferr := bw.Flush(); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// idOf returns the raw id token of a request line, or nil.
func idOf(line []byte) []byte {
	i := bytes.Index(line, []byte(`"id":`))
	if i < 0 {
		return nil
	}
	rest := line[i+5:]
	end := bytes.IndexAny(rest, ",}")
	if end <= 0 {
		return nil
	}
	return bytes.TrimSpace(rest[:end])
}

// copyFiles copies stdin to record and send to stdout, concurrently.
func copyFiles(record, send string) error {
	var wg sync.WaitGroup
	errs := make([]error, 2)
	if record != "" {
		wg.Go(func() {
			f, err := os.Create(record)
			if err == nil {
				_, err = io.Copy(f, os.Stdin)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
			errs[0] = err
		})
	}
	if send != "" {
		wg.Go(func() {
			f, err := os.Open(send)
			if err == nil {
				_, err = io.Copy(os.Stdout, f)
				f.Close()
			}
			errs[1] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
