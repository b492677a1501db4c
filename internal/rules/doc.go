// Package rules holds mcptrail's conformance rules: every rule's metadata
// (Default returns them as a fresh finding.Registry), the [rules] table of
// .mcptrail.toml that disables and re-grades them (Config), and the rules
// that are not correlation: the Streamable HTTP header rules and the
// x-mcp-header schema walk (HTTP), which read the store's per-frame view.
// It also holds the tool drift comparison: CompareTools and CompareSchemas
// turn two tool catalogs into typed changes (ToolChange, whose Kind is a
// drift rule id), and ToolBaseline is the pinned catalog file that
// mcptrail tools --save-baseline writes and check --tools-baseline reads.
//
// It sits above the store (which correlates and raises the correlation
// findings, graded by the Registry it is given) and below the views and
// internal/cli. Nothing here is shared mutable state: Default builds a new
// Registry on each call, and an HTTP checker belongs to one store and is
// called from the goroutine that ingests.
package rules
