// A TypeScript SDK (v1) stdio client for the mock's end-to-end test: it
// starts `argv[2] argv[3...]` as its server, lists the tools, calls book
// (a 2025-11-25 tool that elicits), answers the elicitation with accept,
// and prints one JSON line: the tool names, the result and the questions.
// With $UNRECORDED set it then calls that tool too and prints the error.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [command, ...args] = process.argv.slice(2);
const client = new Client({ name: "e2e-ts-client", version: "1.0.0" }, { capabilities: { elicitation: {} } });
const asked = [];
client.setRequestHandler(ElicitRequestSchema, async (req) => {
  asked.push(req.params.message);
  return { action: "accept", content: { guests: 4 } };
});
const transport = new StdioClientTransport({ command, args, stderr: "inherit" });
await client.connect(transport);
const tools = await client.listTools();
const result = await client.callTool({ name: "book", arguments: {} });
let unrecorded = "";
if (process.env.UNRECORDED) {
  try {
    await client.callTool({ name: process.env.UNRECORDED, arguments: {} });
    unrecorded = "no error";
  } catch (e) {
    unrecorded = String(e.message);
  }
}
await client.close();
console.log(JSON.stringify({ tools: tools.tools.map((t) => t.name), result, asked, unrecorded }));
