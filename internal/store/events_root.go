package store

import "github.com/go-json-experiment/json/jsontext"

// What the store keeps per open client call for its event is kept small,
// because a session may hold a million calls open: the params' shape is
// shared with every other request of the same shape, and the trace context
// and session id take room only when the request had them.

// keep returns v to be kept until its event is out: the shared copy of an
// equal shape, or a copy of v no larger than it (payloadOf's buffer is
// larger). Shapes are shared up to maxInterned distinct ones; content,
// which rarely repeats, is never shared. Kept values are only read.
func (ev *eventState) keep(v jsontext.Value) jsontext.Value {
	if v == nil {
		return nil
	}
	if ev.opts.Content {
		return append(make(jsontext.Value, 0, len(v)), v...)
	}
	if k, ok := ev.shapes[string(v)]; ok {
		return k
	}
	k := append(make(jsontext.Value, 0, len(v)), v...)
	if len(ev.shapes) < maxInterned {
		ev.shapes[string(k)] = k
	}
	return k
}

// keepRoot keeps what call i's event needs of its request.
func (ev *eventState) keepRoot(i int, p rootPayload) {
	ev.roots[i] = p.params
	if p.traceParent != "" || p.traceState != "" || p.httpSession != "" {
		p.params = nil
		ev.rootMeta[i] = p
	}
}

// root returns what was kept of call i's request, reporting whether
// anything was.
func (ev *eventState) root(i int) (rootPayload, bool) {
	params, ok := ev.roots[i]
	if !ok {
		return rootPayload{}, false
	}
	p := ev.rootMeta[i]
	p.params = params
	return p, true
}

// dropRoot forgets what was kept of call i's request.
func (ev *eventState) dropRoot(i int) {
	delete(ev.roots, i)
	delete(ev.rootMeta, i)
}
