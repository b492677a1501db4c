// A TypeScript SDK v2 (@modelcontextprotocol/server 2.4.0) server for the
// sweep: one factory serves both eras, over stdio (serveStdio) or
// Streamable HTTP (createMcpHandler behind node:http).
//   node server-v2.mjs stdio
//   node server-v2.mjs http      (prints "listening on http://127.0.0.1:PORT/mcp" on stderr)
// Its tools ask for input with inputRequired(...), which the SDK sends as
// an input_required result (2026-07-28) or, through its legacy shim, as
// server-to-client requests (2025-11-25):
//   ask    form elicitation     visit  URL-mode elicitation
//   sample sampling             roots  roots/list
//   work   two notifications/progress, then a result
//   slow   runs until the client cancels it (or 30 s)
//   grow   registers the tool "extra" (notifications/tools/list_changed)
import http from 'node:http';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { McpServer, acceptedContent, createMcpHandler, inputRequired } from '@modelcontextprotocol/server';

const text = (t) => ({ content: [{ type: 'text', text: t }] });

// grown is set once grow ran: over HTTP every request has an instance of
// its own, and each registers extra from then on.
let grown = false;

function factory() {
  const server = new McpServer({ name: 'e2e-ts-v2-server', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true }, logging: {} } });
  server.registerTool('ask', { description: 'asks for a form' }, async (ctx) => {
    const c = acceptedContent(ctx.mcpReq.inputResponses, 'form');
    if (c) return text(`ask: ${c.name} ${c.count}`);
    return inputRequired({ inputRequests: { form: inputRequired.elicit({
      message: 'Who and how many?',
      requestedSchema: { type: 'object', properties: {
        name: { type: 'string', minLength: 1 }, count: { type: 'integer', minimum: 1 } }, required: ['name'] },
    }) } });
  });
  server.registerTool('visit', { description: 'asks the user to visit a URL' }, async (ctx) => {
    const r = ctx.mcpReq.inputResponses?.login;
    if (r) return text(`visit: ${r.action}`);
    return inputRequired({ inputRequests: { login: inputRequired.elicitUrl({
      message: 'Sign in', url: 'https://auth.example.com/connect?session=sweep' }) }, requestState: 'visit-1' });
  });
  server.registerTool('sample', { description: 'asks the model' }, async (ctx) => {
    const r = ctx.mcpReq.inputResponses?.haiku;
    if (r) return text(`sample: ${r.model}`);
    return inputRequired({ inputRequests: { haiku: inputRequired.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: 'a haiku about proxies' } }], maxTokens: 32 }) } });
  });
  server.registerTool('roots', { description: 'lists the roots' }, async (ctx) => {
    const r = ctx.mcpReq.inputResponses?.roots;
    if (r) return text(`roots: ${r.roots.map((x) => x.uri).join(' ')}`);
    return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
  });
  server.registerTool('work', { description: 'reports progress' }, async (ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    if (token !== undefined) {
      for (let i = 1; i <= 2; i++) {
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: 2 } });
      }
    }
    return text('worked');
  });
  server.registerTool('slow', { description: 'runs until cancelled' }, async (ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    if (token !== undefined) {
      await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: 0, total: 1 } });
    }
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, 30000);
      ctx.mcpReq.signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); });
    });
    return text(ctx.mcpReq.signal.aborted ? 'slow: cancelled' : 'slow: done');
  });
  const extra = () => server.registerTool('extra', { description: 'added by grow' }, async () => text('extra'));
  if (grown) extra();
  server.registerTool('grow', { description: 'adds a tool' }, async () => {
    if (!grown) {
      grown = true;
      extra();
    }
    return text('grown');
  });
  return server;
}

if (process.argv[2] === 'http') {
  const handler = createMcpHandler(factory);
  const srv = http.createServer(async (req, res) => {
    try {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const ac = new AbortController();
      res.on('close', () => ac.abort());
      const request = new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method, headers: req.headers, body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body, signal: ac.signal,
      });
      const response = await handler.fetch(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) {
        for await (const c of response.body) res.write(c);
      }
      res.end();
    } catch (err) {
      if (!res.headersSent) res.writeHead(500);
      res.end();
      console.error('server-v2:', err);
    }
  });
  srv.listen(0, '127.0.0.1', () => console.error(`listening on http://127.0.0.1:${srv.address().port}/mcp`));
  process.on('SIGTERM', () => process.exit(0));
  process.on('SIGINT', () => process.exit(0));
} else {
  serveStdio(factory);
}
