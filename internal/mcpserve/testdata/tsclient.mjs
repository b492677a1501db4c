// tsclient.mjs drives mcptrail mcp with the official TypeScript SDK v2
// client (@modelcontextprotocol/client) for the end-to-end tests. Usage:
//
//   node tsclient.mjs PLAN -- COMMAND [ARGS...]
//
// PLAN is JSON: {"negotiation": "auto"|"legacy", "calls": [{"name": TOOL,
// "args": {...}}], "resources": [URI], "prompt": {"name": P, "args": {...}}}.
// It connects over stdio, lists the tools, resource templates and prompts,
// makes the calls, reads the resources and gets the prompt, and prints one
// JSON document on stdout: the negotiated protocol version and era, the
// tool names, and each answer (structuredContent, text, isError).
const sep = process.argv.indexOf("--");
const plan = JSON.parse(process.argv[2]);
const [command, ...args] = process.argv.slice(sep + 1);

const { Client } = await import("@modelcontextprotocol/client");
const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");

const opts = { capabilities: {} };
if (plan.negotiation) opts.versionNegotiation = { mode: plan.negotiation };
const client = new Client({ name: "mcptrail-e2e-ts", version: "1.0.0" }, opts);
const transport = new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" });
await client.connect(transport);

const out = {
  protocolVersion: client.getNegotiatedProtocolVersion(),
  era: client.getProtocolEra(),
  server: client.getServerVersion(),
  tools: [],
  templates: [],
  prompts: [],
  results: [],
  resources: [],
  prompt: null,
};
const tools = await client.listTools();
out.tools = tools.tools.map((t) => ({ name: t.name, outputSchema: !!t.outputSchema, readOnly: t.annotations?.readOnlyHint === true }));
out.templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
out.prompts = (await client.listPrompts()).prompts.map((p) => p.name);
for (const c of plan.calls ?? []) {
  const res = await client.callTool({ name: c.name, arguments: c.args ?? {} });
  out.results.push({
    name: c.name,
    isError: res.isError === true,
    structured: res.structuredContent ?? null,
    text: (res.content ?? []).filter((x) => x.type === "text").map((x) => x.text).join(""),
  });
}
for (const uri of plan.resources ?? []) {
  try {
    const res = await client.readResource({ uri });
    out.resources.push({ uri, text: res.contents.map((c) => c.text ?? "").join("") });
  } catch (e) {
    out.resources.push({ uri, error: String(e?.message ?? e) });
  }
}
if (plan.prompt) {
  const p = await client.getPrompt({ name: plan.prompt.name, arguments: plan.prompt.args ?? {} });
  out.prompt = p.messages.map((m) => m.content.text).join("\n");
}
await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
