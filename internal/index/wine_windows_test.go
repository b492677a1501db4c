//go:build wine

package index

import _ "github.com/mcptrail/mcptrail/internal/testbin/wine" // Wine's delete fallback (see that package)
