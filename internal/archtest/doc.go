// Package archtest holds the test that keeps the module's import graph
// pointing the way ../shared/DESIGN.md draws it: every package may import
// only the packages below it (wire knows no MCP and does no I/O, capture
// judges nothing, the store imports no view and no rule, views do not
// import each other, nothing but the command imports the CLI), and the
// test that holds every golden file to a stated intent (intents.toml, a
// corpus expect.toml or a drift pair). It has no non-test code.
package archtest
