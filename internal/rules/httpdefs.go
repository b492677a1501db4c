package rules

import "github.com/mcptrail/mcptrail/internal/finding"

func httpRules() []finding.Rule {
	const c = finding.HTTP
	return []finding.Rule{
		{ID: finding.HTTPBatch, Category: c, Severity: finding.Error,
			Summary: "a Streamable HTTP POST body is a JSON-RPC batch (rule 54)",
			Help:    "Every client message is its own POST whose body is a single request or notification, never an array.",
			Spec:    spec + "§6 rule 54; §5.2"},
		{ID: finding.HTTPVersionHeader, Category: c, Severity: finding.Error,
			Summary: "MCP-Protocol-Version is missing or differs from the body's _meta version (rule 56)",
			Help: "Every POST must carry MCP-Protocol-Version, equal to params._meta's io.modelcontextprotocol/protocolVersion " +
				"for a modern request; a legacy session's POSTs after initialize must carry the negotiated version.",
			Spec: spec + "§6 rule 56; §5.2; §5.3"},
		{ID: finding.HTTPMethodHeader, Category: c, Severity: finding.Error,
			Summary: "a modern request's Mcp-Method header is missing or differs from its method (rule 56)",
			Help:    "A 2026-07-28 request POST must carry Mcp-Method equal to the body's method; a server answers a mismatch 400 with -32020.",
			Spec:    spec + "§6 rule 56; §5.2; §1.9"},
		{ID: finding.HTTPNameHeader, Category: c, Severity: finding.Error,
			Summary: "a modern tools/call, prompts/get or resources/read lacks Mcp-Name or it differs from the body (rule 56)",
			Help: "tools/call and prompts/get must carry Mcp-Name equal to params.name, resources/read equal to params.uri, " +
				"compared after decoding the =?base64?…?= sentinel.",
			Spec: spec + "§6 rule 56; §5.2; §1.9"},
		{ID: finding.HTTPRequestNoBody, Category: c, Severity: finding.Error,
			Summary: "a request was answered with a success status but no JSON-RPC response (rule 60)",
			Help: "A request POST must be answered with a JSON-RPC response (application/json or an SSE stream); a 2xx " +
				"without one (a 202 say, or an event stream that ends before it) leaves the call unanswered. It is not raised " +
				"for a call the client cancelled (a cancelled request is owed no answer), nor for one answered on another " +
				"stream (a POST's SSE stream closed after a priming event and resumed with a GET and Last-Event-ID).",
			Spec: spec + "§6 rule 60; §5.2"},
		{ID: finding.HTTPErrorStatus, Category: c, Severity: finding.Warning,
			Summary: "an HTTP answer has an error status: 401, 403, 404, 5xx, or a 502 when the target is down",
			Help: "The exchange failed at the HTTP level, so its call ended with that status (http-error) or with the JSON-RPC error the body " +
				"carried, and counts as an error. 401 and 403 point at authorization (the capture keeps WWW-Authenticate) or a rejected " +
				"Origin, 404 at a wrong endpoint, an unknown method or a terminated session, 5xx at the server, and a 502 followed by an " +
				"upstream-error note at a target that was down. Not flagged: 400, the protocol's own rejection (the JSON-RPC error says why, " +
				"and a dual-era client's probe of a 2025 server expects it), and 405 to a GET or DELETE, which a server without the legacy " +
				"stream or sessions answers; nor a 401 with a WWW-Authenticate challenge to a request that carried no Authorization, " +
				"which is how the authorization flow starts (`mcptrail auth` shows that flow and the oauth rules judge it).",
			Spec: spec + "§5.2 (Status codes); §5.3"},
		{ID: finding.HTTPContentType, Category: c, Severity: finding.Error,
			Summary: "a request's response is neither application/json nor text/event-stream (rule 60)",
			Help:    "The successful answer to a request POST must have Content-Type application/json or text/event-stream.",
			Spec:    spec + "§6 rule 60; §5.2"},
		{ID: finding.HTTPNotificationStatus, Category: c, Severity: finding.Warning,
			Summary: "an accepted notification POST got a status other than 202 or a body (rule 59)",
			Help:    "A server that accepts a notification POST must answer 202 Accepted with an empty body.",
			Spec:    spec + "§6 rule 59; §5.2"},
		{ID: finding.HTTPParamHeader, Category: c, Severity: finding.Error,
			Summary: "a modern tools/call's Mcp-Param-{Name} header is missing, present for a null or absent argument, differs from the " +
				"x-mcp-header annotated argument, or is not base64-sentinel encoded where it must be (rule 57)",
			Help: "For each argument the tool's latest tools/list annotated with x-mcp-header, a non-null value must travel in " +
				"Mcp-Param-{Name} too, equal to it; a null or missing one must not. Unsafe strings and sentinel look-alikes must be " +
				"sent as =?base64?…?= with lowercase markers; integers beyond ±(2^53−1) cannot travel.",
			Spec: spec + "§6 rule 57; §5.2 (x-mcp-header / Mcp-Param-{Name})"},
		{ID: finding.ToolHeaderAnnotation, Category: c, Severity: finding.Error,
			Summary: "a tool's x-mcp-header annotation breaks the constraints of spec 5.2, or a client calls such a tool over HTTP (rule 49)",
			Help: "An x-mcp-header annotation must be a non-empty RFC 9110 token on a property reached through properties alone, " +
				"of type string, integer or boolean, unique case-insensitively within the tool. A client must exclude a tool whose " +
				"annotations are invalid, so calling it over HTTP is flagged too.",
			Spec: spec + "§6 rule 49; §5.2 (x-mcp-header)"},
	}
}
