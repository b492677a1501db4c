package session

import (
	"errors"
	"io"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// Load reads the session r is at to its end (its session record, every
// record after it and the damage r reports) and returns it. On a read
// error it returns the reader's error as it is (callers name the input)
// and no Session. The reader moves no further
// than the session's end (r.NextSession goes on to the next one).
//
// Decoding records and correlating them take about the same time, so the
// reader runs one batch ahead in its own goroutine (which also redacts
// each record); batches are recycled, keeping memory bounded.
func Load(r *capture.Reader, opts *Options) (*Session, error) {
	l := newLoader(opts)
	var red redact.Redactor
	hdr := (*capture.Record)(nil)
	if opts != nil {
		red, hdr = opts.Redactor, opts.Header
	}
	if hdr == nil {
		hdr = Header(r, red)
	}
	snap, err := ingest(r, hdr, red, &l.opts)
	if err != nil {
		return nil, err
	}
	return l.session(snap), nil
}

// ingest streams hdr and every record of r through a store made with
// opts and returns the final snapshot.
func ingest(r *capture.Reader, hdr *capture.Record, red redact.Redactor, opts *store.Options) (*store.Snapshot, error) {
	const batchSize, depth = 256, 4
	full := make(chan *batch, depth)
	free := make(chan *batch, depth+2)
	for range depth + 2 {
		free <- &batch{recs: make([]capture.Record, batchSize), msgs: make([]wire.Frame, batchSize)}
	}
	done := make(chan struct{})
	defer close(done)
	var readErr error
	go func() {
		defer close(full)
		readErr = readBatches(r, red, free, full, done)
	}()
	st := store.New(opts)
	st.Ingest(hdr)
	var dec wire.Decoder
	for b := range full {
		if !b.decoded {
			b.decode(&dec, red == nil)
		}
		for i := range b.n {
			st.IngestDecoded(&b.recs[i], &b.msgs[i])
		}
		free <- b
	}
	// full is closed: the reader goroutine is done with r and readErr.
	if readErr != nil {
		return nil, readErr
	}
	st.SetDamage(r.Damage())
	return st.Final(), nil
}

// batch is a run of records and, once decoded, each frame record's
// message as store.Decode decoded it (the zero Frame for other records).
type batch struct {
	recs    []capture.Record
	msgs    []wire.Frame
	n       int  // records in use
	decoded bool // msgs are filled
}

// decode fills b.msgs with d; read says that b's records are as the
// capture.Reader returned them (no redactor rewrote a msg).
func (b *batch) decode(d *wire.Decoder, read bool) {
	for i := range b.n {
		if rec := &b.recs[i]; rec.Type == capture.TypeFrame {
			b.msgs[i] = store.Decode(d, rec, read)
		} else {
			b.msgs[i] = wire.Frame{}
		}
	}
	b.decoded = true
}

// readBatches fills the batches of free with the records of r, redacted
// by red (nil: none), and sends them on full until r ends or done is
// closed; it returns the read error that ended r (nil at its end). It
// decodes a batch's frames itself while the store has a batch waiting
// (the store is the slower of the two: check's rules are light, the JSON
// export's spool is not), else leaves them to the store, so that the two
// goroutines share the work.
func readBatches(r *capture.Reader, red redact.Redactor, free <-chan *batch, full chan<- *batch, done <-chan struct{}) error {
	var dec wire.Decoder
	send := func(b *batch) {
		if len(full) > 0 {
			b.decode(&dec, red == nil)
		}
		full <- b
	}
	for {
		var b *batch
		select {
		case b = <-free:
		case <-done:
			return nil
		}
		b.n, b.decoded = 0, false
		for b.n < len(b.recs) {
			rec := &b.recs[b.n]
			err := r.Next(rec)
			if err != nil {
				send(b)
				if errors.Is(err, io.EOF) {
					return nil
				}
				return err
			}
			if red != nil {
				red.Record(rec)
			}
			b.n++
		}
		send(b)
	}
}
