package mock

import (
	"github.com/go-json-experiment/json"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

func member(v []byte, name string) []byte { return jsonraw.Member(v, name) }

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
