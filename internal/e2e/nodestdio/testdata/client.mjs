// client.mjs is a real MCP stdio client built on the official TypeScript
// SDK, v1 (@modelcontextprotocol/sdk) or v2 (@modelcontextprotocol/client),
// for mcptrail's end-to-end tests. Usage:
//
//   node client.mjs PLAN -- COMMAND [ARGS...]
//
// PLAN is JSON: {"sdk": "v1"|"v2", "negotiation": "auto"|"legacy"|"",
// "calls": [{"name": TOOL, "args": {...}}], "thinkMs": N}. It connects to COMMAND over
// stdio (StdioClientTransport), declares the elicitation capability and
// accepts every form, filling each field with a value of its type (so the
// answer holds strings, booleans, numbers and arrays) after thinkMs (the
// user's think time), calls the tools in
// order, then close()s the transport as an application does at shutdown,
// and prints "closed" on stderr.
const sep = process.argv.indexOf("--");
const plan = JSON.parse(process.argv[2]);
const [command, ...args] = process.argv.slice(sep + 1);

const v1 = plan.sdk === "v1";
const { Client } = await import(v1 ? "@modelcontextprotocol/sdk/client/index.js" : "@modelcontextprotocol/client");
const { StdioClientTransport } = await import(v1 ? "@modelcontextprotocol/sdk/client/stdio.js" : "@modelcontextprotocol/client/stdio");
const types = v1 ? await import("@modelcontextprotocol/sdk/types.js") : null;

// value is an answer of the type a requested-schema property asks for.
function value(p) {
  if (p.default !== undefined) return p.default;
  if (p.type === "boolean") return true;
  if (p.type === "integer" || p.type === "number") return p.minimum ?? 1;
  if (p.type === "array") {
    const items = p.items ?? {};
    const first = items.enum?.[0] ?? items.anyOf?.[0]?.const ?? "x";
    return [first];
  }
  if (p.enum) return p.enum[0];
  if (p.oneOf) return p.oneOf[0].const;
  if (p.format === "email") return "ada@example.com";
  if (p.format === "uri") return "https://example.com/";
  if (p.format === "date") return "1815-12-10";
  return "Ada";
}

async function answer(params) {
  if (plan.thinkMs) await new Promise((resolve) => setTimeout(resolve, plan.thinkMs));
  const props = params?.requestedSchema?.properties ?? {};
  const content = {};
  for (const [k, p] of Object.entries(props)) content[k] = value(p);
  return { action: "accept", content };
}

const opts = { capabilities: { elicitation: { form: {} } } };
if (plan.negotiation) opts.versionNegotiation = { mode: plan.negotiation };
const client = new Client({ name: "mcptrail-e2e-" + plan.sdk, version: "1.0.0" }, opts);
if (v1) {
  client.setRequestHandler(types.ElicitRequestSchema, (req) => answer(req.params));
} else {
  client.setRequestHandler("elicitation/create", (req) => answer(req.params));
}
const transport = new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" });
await client.connect(transport);
for (const c of plan.calls ?? []) {
  const res = await client.callTool({ name: c.name, arguments: c.args ?? {} });
  if (res.isError) {
    console.error("call", c.name, "failed:", JSON.stringify(res));
    process.exit(1);
  }
}
await client.close();
console.error("closed");
