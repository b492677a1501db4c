package diff

import "github.com/mcptrail/mcptrail/internal/store"

// compareLatency lists the methods and tools answered in both sessions
// whose p50 changed, methods first, in a's order (the handshake's never
// slower, see timed); nil unless opts.SlowerThan is set.
func compareLatency(a, b *store.Summary, opts *Options) []Latency {
	if opts.SlowerThan <= 0 {
		return nil
	}
	var out []Latency
	for _, g := range []struct {
		group  string
		as, bs []store.Stat
	}{{"method", a.Methods, b.Methods}, {"tool", a.Tools, b.Tools}, {"server request", a.Server, b.Server}} {
		for _, sa := range g.as {
			for _, sb := range g.bs {
				if sa.Name != sb.Name || sa.P50MS == sb.P50MS || sa.P50MS == 0 || sb.P50MS == 0 {
					continue
				}
				out = append(out, Latency{Group: g.group, Name: sa.Name, OldMS: roundMS(sa.P50MS), NewMS: roundMS(sb.P50MS),
					Slower: judged(g.group, sa.Name) && slower(sa.P50MS, sb.P50MS, opts)})
			}
		}
	}
	return out
}

// judged reports whether a slower p50 of the group's name is the server's
// doing: not the handshake's (timed), nor a server request's, whose time
// is the client's or its user's (an elicitation's answer).
func judged(group, name string) bool {
	switch group {
	case "method":
		return timed(name)
	case "server request":
		return false
	}
	return true
}
