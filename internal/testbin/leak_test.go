package testbin

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// fatalTB is a testing.TB whose Fatalf panics with its message, so a test
// can see a check fail without failing itself.
type fatalTB struct{ testing.TB }

func (fatalTB) Helper() {}

func (fatalTB) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }

// fails reports the message f failed tb with, or "" when it did not.
func fails(f func(tb testing.TB)) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f(fatalTB{})
	return ""
}

// TestNoLeak: a goroutine still running past the wait fails the check,
// naming both counts; once it returns, the counts are back and the check
// passes. Not parallel: it counts the process's goroutines.
func TestNoLeak(t *testing.T) {
	base := CountUsage()
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() { <-stop; close(stopped) }()
	msg := fails(func(tb testing.TB) { NoLeak(tb, base, 50*time.Millisecond) })
	if want := fmt.Sprintf("goroutines %d (baseline %d)", base.Goroutines+1, base.Goroutines); !strings.Contains(msg, want) {
		t.Errorf("NoLeak with a goroutine left running: %q, want it to say %q", msg, want)
	}
	close(stop)
	<-stopped
	NoLeak(t, base, 5*time.Second)
}
