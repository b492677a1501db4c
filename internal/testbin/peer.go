package testbin

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// PeerArg, as a test binary's first argument, makes PeerMain run Peer with
// the arguments after it instead of the tests.
const PeerArg = "mcptrail-test-peer"

// PeerMain is a TestMain for a package whose tests start Peer through
// PeerCommand: the test binary is the server.
func PeerMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == PeerArg {
		os.Exit(Peer(os.Args[2:]))
	}
	os.Exit(m.Run())
}

// PeerCommand returns the command line that starts the test binary as
// Peer running ops; the package's TestMain must be PeerMain.
func PeerCommand(t testing.TB, ops ...string) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{exe, PeerArg}, ops...)
}

// Peer is a test server that runs ops in order and returns its exit
// status; a test binary becomes it when started with PeerArg first (see
// PeerMain), and a testscript can register it as a command. Being Go, it
// behaves alike on Unix and Windows, where there is no sh, cat or sleep.
//
//	cat        copy stdin to stdout until EOF
//	read       read one line of stdin
//	out:TEXT   write TEXT to stdout (\n stands for a newline)
//	err:TEXT   write TEXT to stderr
//	touch:PATH create the empty file PATH
//	sleep:D    sleep for the duration D
//	child:D    start a child that sleeps D, holding our stdout and stderr
//	exit:N     exit with status N (the default, after the last op, is 0)
func Peer(ops []string) int {
	for _, op := range ops {
		verb, arg, _ := strings.Cut(op, ":")
		if err := peerOp(verb, strings.ReplaceAll(arg, `\n`, "\n")); err != nil {
			if code, ok := err.(exitCode); ok {
				return int(code)
			}
			fmt.Fprintln(os.Stderr, "peer:", err)
			return 100
		}
	}
	return 0
}

// exitCode is the error by which peerOp asks to exit with a status.
type exitCode int

func (c exitCode) Error() string { return "exit " + strconv.Itoa(int(c)) }

func peerOp(verb, arg string) error {
	switch verb {
	case "cat":
		_, err := io.Copy(os.Stdout, os.Stdin)
		return err
	case "read":
		_, err := bufio.NewReader(os.Stdin).ReadString('\n')
		return err
	case "out":
		_, err := os.Stdout.WriteString(arg)
		return err
	case "err":
		_, err := os.Stderr.WriteString(arg)
		return err
	case "touch":
		return os.WriteFile(arg, nil, 0o600)
	case "sleep":
		d, err := time.ParseDuration(arg)
		time.Sleep(d)
		return err
	case "child":
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		cmd := exec.Command(exe, PeerArg, "sleep:"+arg)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		return cmd.Start()
	case "exit":
		n, err := strconv.Atoi(arg)
		if err != nil {
			return err
		}
		return exitCode(n)
	}
	return fmt.Errorf("unknown op %q", verb)
}
