// Command mcptrail is a transparent proxy, inspector and analytics tap for
// the Model Context Protocol.
package main

import (
	"context"
	"os"

	"github.com/mcptrail/mcptrail/internal/cli"
)

func main() {
	os.Exit(cli.Main(context.Background(), os.Args[1:], cli.System()))
}
