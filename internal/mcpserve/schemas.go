package mcpserve

// The tools' input and output schemas (JSON Schema 2020-12). Every list
// answer adds the paging members: total, returned, next_cursor (absent on
// the last page) and omitted (what the answer left out, absent when
// nothing).

const sessionArg = `"session":{"type":"string","description":"a session id or unique id prefix; empty: the newest session"}`

const cursorArg = `"cursor":{"type":"string","description":"next_cursor of the previous page; empty: the first page"}`

const paging = `"total":{"type":"integer","description":"items in the whole list"},` +
	`"returned":{"type":"integer","description":"items in this answer"},` +
	`"next_cursor":{"type":"string","description":"pass as cursor for the next page; absent on the last"},` +
	`"omitted":{"type":"string","description":"what this answer left out, and how to get it"}`

const damageSchema = `{"type":"object","properties":{"torn":{"type":"boolean"},"torn_bytes":{"type":"integer"},"corrupt":{"type":"integer"}}}`

const sessionsIn = `{"type":"object","additionalProperties":false,"properties":{` +
	`"label":{"type":"string","description":"only the sessions with this label"},` +
	`"since":{"type":"string","description":"only the sessions started since: an age (7d, 12h) or a date (2026-11-01)"},` +
	`"transport":{"type":"string","description":"only the sessions of this transport (stdio, http)"},` +
	`"with_elicitations":{"type":"boolean","description":"only the sessions that asked the user something"},` +
	cursorArg + `}}`

const sessionsOut = `{"type":"object","required":["sessions","total","returned"],"properties":{` +
	`"sessions":{"type":"array","items":{"type":"object","properties":{` +
	`"id":{"type":"string"},"label":{"type":"string"},"transport":{"type":"string"},"start":{"type":"string","format":"date-time"},` +
	`"frames":{"type":"integer"},"calls":{"type":"integer","description":"the client's calls, an MRTR operation once"},` +
	`"server_requests":{"type":"integer","description":"the server's requests to the client"},` +
	`"errors":{"type":"integer"},"asked":{"type":"integer","description":"elicitation ledger rows"},` +
	`"ended":{"type":"boolean","description":"false when the capture has no end record"}}}},` + paging + `}}`

const sessionIn = `{"type":"object","additionalProperties":false,"properties":{` + sessionArg + `}}`

const pageIn = `{"type":"object","additionalProperties":false,"properties":{` + sessionArg + `,` + cursorArg + `}}`

const explainIn = `{"type":"object","additionalProperties":false,"required":["id"],"properties":{` +
	`"id":{"type":"string","description":"a rule id, as a finding names it"}}}`

const callRowSchema = `{"type":"object","properties":{"call":{"type":"integer"},"dir":{"type":"string"},"method":{"type":"string"},` +
	`"target":{"type":"string"},"status":{"type":"string"},"answered":{"type":"boolean"},"duration_ms":{"type":"number"},` +
	`"error_code":{"type":"integer"},"error_message":{"type":"string"}}}`

const peerSchema = `{"type":"object","properties":{"name":{"type":"string"},"version":{"type":"string"}}}`

const countsSchema = `{"type":"object","additionalProperties":{"type":"integer"}}`

const summaryOut = `{"type":"object","required":["session","counts","errors","slowest","ledger","findings"],"properties":{` +
	`"session":{"type":"object","properties":{"id":{"type":"string"},"label":{"type":"string"},"transport":{"type":"string"},` +
	`"target":{"type":"string"},"start":{"type":"string"},"end":{"type":"string"},"ended":{"type":"boolean"},` +
	`"live":{"type":"boolean","description":"a proxy is still writing the capture: read as far as written"},"duration_ms":{"type":"number"},` +
	`"client":` + peerSchema + `,"server":` + peerSchema + `,"protocol_versions":{"type":"array","items":{"type":"string"}},` +
	`"exit":{"type":"integer"},"signal":{"type":"string"},"redacted":{"type":"boolean"},"damage":` + damageSchema + `,"lost_frames":{"type":"integer"}}},` +
	`"counts":{"type":"object","description":"requests: every request either way; calls: the client's, an MRTR operation once; more_rounds: its retries; server_requests: the server's requests to the client","properties":{` +
	`"records":{"type":"integer"},"frames":{"type":"integer"},"bytes":{"type":"integer"},"requests":{"type":"integer"},"calls":{"type":"integer"},` +
	`"more_rounds":{"type":"integer"},"server_requests":{"type":"integer"},"notifications":{"type":"integer"},"invalid":{"type":"integer"},"stderr":{"type":"integer"}}},` +
	`"errors":{"type":"object","properties":{"total":{"type":"integer","description":"failed calls, an operation once"},` +
	`"calls":{"type":"array","description":"the first failed requests","items":` + callRowSchema + `}}},` +
	`"slowest":{"type":"array","description":"the slowest answered client calls, an MRTR operation once with its whole duration and final status","items":` + callRowSchema + `},` +
	`"ledger":{"type":"object","properties":{"questions":{"type":"integer"},"mode":` + countsSchema + `,"action":` + countsSchema + `,"status":` + countsSchema + `}},` +
	`"findings":{"type":"object","properties":{"total":{"type":"integer"},"error":{"type":"integer"},"warning":{"type":"integer"},"info":{"type":"integer"},` +
	`"rules":{"type":"array","items":{"type":"object","properties":{"rule":{"type":"string"},"severity":{"type":"string"},"count":{"type":"integer"}}}}}},` +
	`"omitted":{"type":"string","description":"what a summary cut to fit the budget left out of its lists"}}}`

const ledgerOut = `{"type":"object","required":["session_id","rows","total","returned"],"properties":{"session_id":{"type":"string"},` +
	`"rows":{"type":"array","description":"the rows of mcptrail ledger --json (docs/export-json.md, elicitations[]); never a submitted value","items":{"type":"object"}},` +
	paging + `}}`

const ruleProps = `"id":{"type":"string"},"category":{"type":"string"},"default_severity":{"type":"string"},"severity":{"type":"string"},` +
	`"enabled":{"type":"boolean"},"on_by_default":{"type":"boolean"},"summary":{"type":"string"},"help":{"type":"string"},"spec":{"type":"string"}`

const ruleOut = `{"type":"object","required":["id","severity","help"],"properties":{` + ruleProps + `}}`

const checkOut = `{"type":"object","required":["session_id","failed","items","total","returned"],"properties":{` +
	`"session_id":{"type":"string"},"label":{"type":"string"},"failed":{"type":"boolean","description":"a finding at error: check would exit 1"},` +
	`"damage":` + damageSchema + `,"error":{"type":"integer"},"warning":{"type":"integer"},"info":{"type":"integer"},` +
	`"rules":{"type":"array","description":"the rules raised, with their help","items":{"type":"object","properties":{` + ruleProps + `}}},` +
	`"items":{"type":"array","description":"the findings of mcptrail check -T json (results[].items)","items":{"type":"object","properties":{` +
	`"rule":{"type":"string"},"severity":{"type":"string"},"seq":{"type":"integer"},"call":{"type":"string"},"line":{"type":"integer"},` +
	`"message":{"type":"string"},"fingerprint":{"type":"string"}}}},` + paging + `}}`

const callsIn = `{"type":"object","additionalProperties":false,"properties":{` + sessionArg + `,` +
	`"filter":{"type":"string","description":"the TUI's filter language (docs/filter.md), e.g. \"status:error tool:create_*\"; empty: every request"},` +
	cursorArg + `}}`

const callLineProps = `"call":{"type":"integer"},"dir":{"type":"string"},"method":{"type":"string"},` +
	`"target":{"type":"string"},"status":{"type":"string"},"answered":{"type":"boolean"},"duration_ms":{"type":"number"},` +
	`"error_code":{"type":"integer"},"error_message":{"type":"string"},"id":{"type":"string","description":"the JSON-RPC id as on the wire"},` +
	`"era":{"type":"string"},"request_seq":{"type":"integer"},"response_seq":{"type":"integer"},"operation":{"type":"integer"},"round":{"type":"integer"},` +
	`"parent":{"type":"integer","description":"the client call a server request interrupted"},"late":{"type":"boolean"},"cancelled":{"type":"boolean"},` +
	`"rules":{"type":"array","items":{"type":"string"}}`

const callIn = `{"type":"object","additionalProperties":false,"required":["call"],"properties":{` + sessionArg + `,` +
	`"call":{"type":"integer","minimum":0,"description":"the call's index, as the calls tool gives it"},` + cursorArg + `}}`

const callOut = `{"type":"object","required":["session_id","call","frames","total","returned"],"properties":{` +
	`"session_id":{"type":"string"},"call":{"type":"object","properties":{` + callLineProps + `}},` +
	`"frames":{"type":"array","items":{"type":"object","properties":{"seq":{"type":"integer"},"line":{"type":"integer","description":"the capture file's line"},` +
	`"dir":{"type":"string"},"time":{"type":"string"},"size":{"type":"integer","description":"the frame's bytes on the wire"},` +
	`"msg":{"description":"the message as JSON, long strings cut"},"text":{"type":"string","description":"a frame that is not JSON"},` +
	`"answers":{"type":"integer","description":"elicitation answers in the frame, their values replaced"}}}},` + paging + `}}`

const callsOut = `{"type":"object","required":["session_id","calls","total","returned"],"properties":{` +
	`"session_id":{"type":"string"},"filter":{"type":"string"},"requests":{"type":"integer","description":"requests in the session, matched or not"},` +
	`"calls":{"type":"array","items":{"type":"object","properties":{` + callLineProps + `}}},` + paging + `}}`

const diffIn = `{"type":"object","additionalProperties":false,"required":["a","b"],"properties":{` +
	`"a":{"type":"string","description":"the older session: an id or unique id prefix"},` +
	`"b":{"type":"string","description":"the newer session: an id or unique id prefix"},` +
	`"slower_than":{"type":"string","description":"report calls and p50s that grew by this factor (2x by default; 0: compare no duration)"},` +
	`"ignore":{"type":"array","items":{"type":"string"},"description":"JSON Pointers of result members whose changes are not reported"},` +
	cursorArg + `}}`

const sideSchema = `{"type":"object","properties":{"session":{"type":"string"},"label":{"type":"string"},"calls":{"type":"integer"}}}`

const diffOut = `{"type":"object","required":["a","b","differs","changes","total","returned"],"properties":{` +
	`"a":` + sideSchema + `,"b":` + sideSchema + `,"differs":{"type":"boolean","description":"mcptrail diff would exit 1"},` +
	`"matched":{"type":"integer"},"operations":{"type":"integer"},"sections":` + countsSchema + `,` +
	`"changes":{"type":"array","items":{"type":"object","properties":{"section":{"type":"string",` +
	`"enum":["catalog","calls.changed","calls.only_a","calls.only_b","calls.slower","ledger","findings.new","findings.gone","latency"]},` +
	`"change":{"type":"object","description":"the element of that list of mcptrail diff --json (docs/diff.md)"}}}},` + paging + `}}`

const toolsIn = `{"type":"object","additionalProperties":false,"properties":{` + sessionArg + `,` +
	`"list":{"type":"string","enum":["tools","skills","apps"],"description":"what to list: the tools (default), the skills or the app tools"},` +
	`"baseline":{"type":"string","description":"a session whose catalog this one is compared with; the answer lists the drift instead of the tools"},` +
	cursorArg + `}}`

const toolsOut = `{"type":"object","required":["session_id","listed","complete","total","returned"],"properties":{` +
	`"session_id":{"type":"string"},"listed":{"type":"boolean"},"complete":{"type":"boolean"},` +
	`"tools":{"type":"array","description":"the tools of mcptrail tools --json (docs/tools.md)","items":{"type":"object"}},` +
	`"skills":{"type":"array","description":"with list skills: the skills of mcptrail tools --json","items":{"type":"object"}},` +
	`"apps":{"type":"array","description":"with list apps: the app tools of mcptrail tools --json","items":{"type":"object"}},` +
	`"tool_count":{"type":"integer"},"skill_count":{"type":"integer"},"app_count":{"type":"integer"},"baseline":{"type":"string"},"baseline_listed":{"type":"boolean"},` +
	`"drift":{"type":"array","description":"with a baseline: the changes from its catalog","items":{"type":"object","properties":{"kind":{"type":"string"},"tool":{"type":"string"},` +
	`"what":{"type":"string"},"old":{"type":"string"},"new":{"type":"string"}}}},"drift_by_rule":` + countsSchema + `,` + paging + `}}`

const tailIn = `{"type":"object","additionalProperties":false,"properties":{` + sessionArg + `,` +
	`"what":{"type":"string","enum":["calls","records"],"description":"calls: the next requests (default); records: the next frames"},` +
	`"count":{"type":"integer","minimum":1,"maximum":100,"description":"how many to wait for (1 by default)"},` +
	`"after_seq":{"type":"integer","minimum":0,"description":"count after this seq (a previous answer's last_seq); default: what is written now"},` +
	`"timeout_s":{"type":"number","exclusiveMinimum":0,"maximum":60,"description":"how long to wait at most, in seconds (30 by default)"},` +
	cursorArg + `}}`

const tailOut = `{"type":"object","required":["session_id","what","after_seq","last_seq","stopped","total","returned"],"properties":{` +
	`"session_id":{"type":"string"},"what":{"type":"string"},"after_seq":{"type":"integer"},` +
	`"last_seq":{"type":"integer","description":"pass as after_seq to wait for what comes next"},` +
	`"stopped":{"type":"string","enum":["count","timeout","ended","writer-gone"]},"waited_ms":{"type":"number"},` +
	`"live":{"type":"boolean","description":"a proxy is still writing the capture"},` +
	`"calls":{"type":"array","items":{"type":"object","properties":{` + callLineProps + `}}},` +
	`"frames":{"type":"array","items":{"type":"object"}},` + paging + `}}`
