package store

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// ErrNoFrame is returned by Snapshot.Frame for a seq the snapshot cannot
// hand out: no frame has it, or the store was given no way to read frames
// (Options.Source, Options.KeepFrames).
var ErrNoFrame = errors.New("no such frame")

// frameIndex finds each frame's line by seq: its offset in the capture
// (Options.Source) or in the bytes the store keeps (Options.KeepFrames).
// It holds 8 bytes a frame, not the frames. Everything a snapshot shares
// is only appended to; sparse is replaced, not changed, once shared.
type frameIndex struct {
	// offs[i] is one more than the offset of the frame with seq base+i,
	// zero for none: seqs are dense, so a slice indexed by seq is enough.
	base uint64
	offs []int64
	// sparse holds the seqs offs cannot: before base, far past its end,
	// or in a slot a snapshot already shares.
	sparse       map[uint64]int64
	sparseShared bool
	// kept and enc hold the frame lines themselves (Options.KeepFrames).
	kept *arena
	enc  *capture.Writer
}

// maxSeqGap is the widest run of seqs without a frame that offs pads with
// zeros (stderr lines and notes take seqs too); a wider one goes to sparse.
const maxSeqGap = 64

// add indexes frame record r.
func (x *frameIndex) add(r *capture.Record, opts *Options) {
	if r.Seq == 0 {
		return
	}
	off := r.Offset
	switch {
	case opts.Source != nil:
		if off <= 0 { // not read from the file: nothing to point at
			return
		}
	case opts.KeepFrames:
		if x.kept == nil {
			x.kept = &arena{}
			x.enc = capture.NewWriter(x.kept)
		}
		off = x.kept.n
		if x.enc.Write(r) != nil || x.enc.Flush() != nil {
			return // the arena never fails; a record the Writer refuses is not kept
		}
	default:
		return
	}
	x.set(r.Seq, off)
}

func (x *frameIndex) set(seq uint64, off int64) {
	if len(x.offs) == 0 && len(x.sparse) == 0 {
		x.base = seq
	}
	end := x.base + uint64(len(x.offs))
	if seq >= end && seq-end <= maxSeqGap {
		for ; end < seq; end++ {
			x.offs = append(x.offs, 0)
		}
		x.offs = append(x.offs, off+1)
		return
	}
	if x.sparseShared {
		x.sparse, x.sparseShared = maps.Clone(x.sparse), false
	}
	if x.sparse == nil {
		x.sparse = make(map[uint64]int64)
	}
	x.sparse[seq] = off
}

// share returns what a snapshot needs to find frames.
func (x *frameIndex) share(opts *Options) frameView {
	v := frameView{base: x.base, offs: slices.Clip(x.offs), sparse: x.sparse}
	x.sparseShared = x.sparse != nil
	switch {
	case opts.Source != nil:
		v.src = opts.Source
	case x.kept != nil:
		v.src = x.kept.view()
	}
	return v
}

// frameView is a snapshot's frame index.
type frameView struct {
	base   uint64
	offs   []int64
	sparse map[uint64]int64
	src    io.ReaderAt
}

func (v *frameView) offset(seq uint64) (int64, bool) {
	if seq >= v.base && seq-v.base < uint64(len(v.offs)) {
		if o := v.offs[seq-v.base]; o > 0 {
			return o - 1, true
		}
	}
	off, ok := v.sparse[seq]
	return off, ok
}

// Frame returns the frame record with sequence number seq, read back from
// the capture file given as Options.Source (by the offset the capture
// Reader found it at) or from the bytes kept with Options.KeepFrames. It
// returns ErrNoFrame when the snapshot holds no frame with that seq or
// the store was given neither; an error reading the file is returned
// wrapped. It is safe for concurrent use when Options.Source is.
func (s *Snapshot) Frame(seq uint64) (capture.Record, error) {
	off, ok := s.frames.offset(seq)
	if !ok || s.frames.src == nil {
		return capture.Record{}, fmt.Errorf("reading frame %d: %w", seq, ErrNoFrame)
	}
	rec, err := capture.ReadAt(s.frames.src, off)
	if err != nil {
		return capture.Record{}, fmt.Errorf("reading frame %d: %w", seq, err)
	}
	if rec.Type != capture.TypeFrame || rec.Seq != seq {
		return capture.Record{}, fmt.Errorf("reading frame %d: the source holds a %s record with seq %d there: %w",
			seq, rec.Type, rec.Seq, ErrNoFrame)
	}
	return rec, nil
}
