// A TypeScript SDK v2 client pinned to 2026-07-28 that calls the order
// tool, accepting its confirmation (an MRTR round), then the price tool.
// Usage: node mrtr-client.mjs -- COMMAND [ARGS...]
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
// A subclass probes in place: one process, one capture (the base class
// probes on a sibling process).
class InPlace extends StdioClientTransport {}
const [cmd, ...args] = process.argv.slice(process.argv.indexOf("--") + 1);
const client = new Client({ name: "mrtr-client", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } } });
client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { confirm: true } }));
await client.connect(new InPlace({ command: cmd, args, stderr: "inherit" }));
for (const name of ["order", "price"]) {
  const r = await client.callTool({ name, arguments: {} });
  console.log(name, JSON.stringify(r));
}
await client.close();
