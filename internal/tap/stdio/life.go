package stdio

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// DefaultKillAfter is how long a server gets to exit after it was asked to
// (a signal passed on, or SIGTERM when the client went away) before
// mcptrail kills it.
const DefaultKillAfter = 5 * time.Second

// hangupPoll is how often, once the client has closed our stdin and the
// server outlived the grace period, the tap asks the system whether the
// client's end of our stdout is still open.
const hangupPoll = 250 * time.Millisecond

// life is the server's lifecycle in one Run: stop requests and their
// escalation, and the client's departure. Its methods may be called from
// any goroutine.
type life struct {
	t     *tap
	p     *process
	grace time.Duration

	mu      sync.Mutex
	signals int         // stop signals received
	timer   *time.Timer // armed by the first stop request
	killed  bool
	exited  bool
	eofAt   time.Time     // when the client closed our stdin; zero while open
	asked   []stopReq     // the stop requests sent to the server, in order
	gone    atomic.Bool   // the client went away; set with mu held
	done    chan struct{} // closed when the server exited
}

// stopReq is one signal sent to the server to stop it, and on whose
// behalf (capture.StopClient, StopTap or StopKillAfter).
type stopReq struct {
	sig    os.Signal
	by     string
	eofAge time.Duration // how long the server's stdin had been closed; 0 when open
}

func newLife(t *tap, p *process) *life {
	grace := t.opts.KillAfter
	if grace <= 0 {
		grace = DefaultKillAfter
	}
	return &life{t: t, p: p, grace: grace, done: make(chan struct{})}
}

// signal handles a stop signal that reached mcptrail: the first is passed
// on to the server and starts the grace period; a second kills the server
// at once.
func (l *life) signal(sig os.Signal) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.exited || l.killed {
		return
	}
	l.signals++
	if l.signals > 1 {
		l.killLocked(capture.StopClient, fmt.Sprintf("sent by mcptrail: a second stop signal (%s)", signalName(sig)))
		return
	}
	l.askLocked(sig, capture.StopClient, "")
}

// clientGone ends the session because the client went away (why says how
// we know): it notes it and, unless a stop is already under way, asks the
// server to exit with politeStop and starts the grace period. Only the
// first call counts.
func (l *life) clientGone(why string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.gone.Load() {
		return
	}
	l.gone.Store(true)
	l.t.note(&capture.Record{Type: capture.TypeNote, Note: capture.NoteClientGone, Text: why})
	if !l.exited && !l.killed && l.timer == nil {
		l.askLocked(politeStop(), capture.StopTap, "sent by mcptrail: the client went away")
	}
}

// askLocked passes sig on (on behalf of by), notes it, and arms the kill
// timer.
func (l *life) askLocked(sig os.Signal, by, why string) {
	n := &capture.Record{Type: capture.TypeNote, Note: capture.NoteSignal, Signal: signalName(sig), Text: why}
	if err := l.p.sys.interrupt(sig); err != nil {
		n.Text = fmt.Sprintf("passing %s to the server: %v", n.Signal, err)
	} else {
		l.askedLocked(sig, by)
	}
	l.t.note(n)
	if l.timer == nil {
		name := n.Signal
		l.timer = time.AfterFunc(l.grace, func() { l.expire(name) })
	}
}

// expire kills a server still running when the grace period ends.
func (l *life) expire(asked string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.exited && !l.killed {
		l.killLocked(capture.StopKillAfter, fmt.Sprintf("sent by mcptrail: the server was still running %v after %s", l.grace, asked))
	}
}

// killLocked kills the server (on behalf of by) and notes why.
func (l *life) killLocked(by, why string) {
	l.killed = true
	n := &capture.Record{Type: capture.TypeNote, Note: capture.NoteSignal, Signal: "SIGKILL", Text: why}
	if err := l.p.sys.kill(); err != nil {
		n.Text = fmt.Sprintf("%s; killing the server: %v", why, err)
	} else {
		l.askedLocked(os.Kill, by)
	}
	l.t.note(n)
}

// askedLocked remembers that sig was sent to the server on behalf of by.
func (l *life) askedLocked(sig os.Signal, by string) {
	r := stopReq{sig: sig, by: by}
	if !l.eofAt.IsZero() {
		r.eofAge = max(l.t.now().Sub(l.eofAt), time.Microsecond)
	}
	l.asked = append(l.asked, r)
}

// stdinClosed records that the client closed our stdin, so the server's.
func (l *life) stdinClosed() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.eofAt.IsZero() {
		l.eofAt = l.t.now()
	}
}

// stoppedBy says whether the server, which exited with code (sig when a
// signal killed it), ended on a stop request: who asked
// (capture.StopClient, StopTap, StopKillAfter) and how long its stdin had
// been closed when it was first asked. A server that died of a signal it
// was sent, or exited with any status after it was asked (servers that
// catch SIGINT or SIGTERM often exit 1 or 128+n), ended on the request;
// one that died of another signal crashed, and by is empty.
func (l *life) stoppedBy(code int, sig string) (by string, eofAge time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.asked) == 0 {
		return "", 0
	}
	first := l.asked[0]
	if sig == "" {
		return first.by, first.eofAge
	}
	for i := len(l.asked) - 1; i >= 0; i-- {
		if r := l.asked[i]; sig == signalName(r.sig) {
			return r.by, first.eofAge
		}
	}
	return "", 0
}

// exit records that the server exited: nothing is sent to it after this.
func (l *life) exit() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.exited = true
	close(l.done)
	if l.timer != nil {
		l.timer.Stop()
	}
}

// watch runs after the client closed our stdin (which closed the
// server's): if the server is still running l.grace later and the system
// reports the client's end of our stdout closed too, the client is gone
// and the server has nobody to answer: the session ends as a client
// disconnect. A server that exits at EOF, as it should, never gets here.
func (l *life) watch(stdout io.Writer) {
	timer := time.NewTimer(l.grace)
	defer timer.Stop()
	select {
	case <-l.done:
		return
	case <-timer.C:
	}
	if watchHangup(stdout, l.done) {
		l.clientGone(fmt.Sprintf("the client closed our stdin, then its end of our stdout, and the server was still running %v later", l.grace))
	}
}
