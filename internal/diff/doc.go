// Package diff compares two captured sessions: the catalog each server
// listed, the client's calls matched by method, target and arguments
// (order only breaks ties, ids are ignored) with their results, errors
// and durations, the elicitation ledgers, the findings and the latency
// of each method and tool. It also holds the structural JSON diff (JSON)
// that the comparison of results uses.
//
// It is a view: it reads store snapshots (and, through Snapshot.Frame,
// the frames of the calls it compares) and never correlates on its own.
// `mcptrail diff` prints its Report and `mcptrail replay` builds one from
// the recorded and the replayed session. A Report never carries a value
// from an elicitation answer: the ledger it reads holds none.
//
// Every function is safe for concurrent use; a Report is a value its
// caller owns.
package diff
