// A TypeScript SDK v2 server (2026-07-28 and 2025 eras, serveStdio) whose
// order tool asks for a confirmation in an MRTR round and mints a fresh
// order id (kept in requestState) and timestamp each time; price is
// stable. MCPTRAIL_TEST_TOTAL changes the total both report: a changed
// build of the same server.
import { randomUUID } from "node:crypto";
import { McpServer, inputRequired, acceptedContent } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

const total = Number(process.env.MCPTRAIL_TEST_TOTAL ?? "42");
const readOnly = { readOnlyHint: true, destructiveHint: false };
const confirmSchema = { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] };

serveStdio(() => {
  const server = new McpServer({ name: "orders", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.registerTool("order", { description: "Place an order after a confirmation", annotations: readOnly }, async (ctx) => {
    const ok = acceptedContent(ctx.mcpReq.inputResponses, "confirm");
    const state = ctx.mcpReq.requestState();
    if (ok?.confirm !== true || state === undefined) {
      return inputRequired({
        inputRequests: { confirm: inputRequired.elicit({ message: "Place the order?", requestedSchema: confirmSchema }) },
        requestState: JSON.stringify({ order: randomUUID() }),
      });
    }
    const { order } = JSON.parse(state);
    return {
      content: [{ type: "text", text: `order ${order} placed` }],
      structuredContent: { order, createdAt: new Date().toISOString(), total },
    };
  });
  server.registerTool("price", { description: "The price of the order", annotations: readOnly }, async () => ({
    content: [{ type: "text", text: `total ${total}` }],
  }));
  return server;
});
