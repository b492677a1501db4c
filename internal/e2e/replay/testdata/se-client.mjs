// A TypeScript SDK v1 client for server-everything over stdio: it declares
// roots and form and URL elicitation, lists the tools, waits for the
// server's roots/list (asked 350 ms after initialized), then calls the
// tools named on the command line (NAME or NAME=JSON-ARGUMENTS) in order,
// accepting every elicitation.
// Usage: node se-client.mjs [CALL...] -- COMMAND [ARGS...]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const sep = process.argv.indexOf("--");
const calls = process.argv.slice(2, sep);
const [cmd, ...args] = process.argv.slice(sep + 1);
const client = new Client({ name: "se-client", version: "1.0.0" }, { capabilities: { roots: { listChanged: true }, elicitation: { form: {}, url: {} } } });
let asked = 0;
client.setRequestHandler(ListRootsRequestSchema, async () => { asked++; return { roots: [{ uri: "file:///work/project", name: "project" }] }; });
client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept" }));
await client.connect(new StdioClientTransport({ command: cmd, args, stderr: "inherit" }));
await client.listTools();
for (let i = 0; i < 50 && asked === 0; i++) await new Promise((r) => setTimeout(r, 20));
for (const c of calls) {
  const [name, json] = c.split(/=(.*)/s);
  const r = await client.callTool({ name, arguments: json ? JSON.parse(json) : {} });
  console.log(name, JSON.stringify(r).slice(0, 300));
}
await client.close();
