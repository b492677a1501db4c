// A 2024-11-05 HTTP+SSE client: the TypeScript SDK v1's SSEClientTransport
// (GET the event stream, POST each message to the endpoint event's URI).
// It lists the tools, calls echo and closes; with a proxy URL it sends
// every request through that forward proxy (undici's ProxyAgent).
//   node sseclient.mjs SSE_URL [PROXY_URL]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';

const [url, proxy] = process.argv.slice(2);
const opts = {};
if (proxy) {
  const { ProxyAgent, fetch } = await import('undici');
  // An http: target in absolute form, not a CONNECT tunnel: the forward
  // proxy then sees each request.
  const dispatcher = new ProxyAgent({ uri: proxy, proxyTunnel: false });
  opts.fetch = (u, init) => fetch(u, { ...init, dispatcher });
}
const client = new Client({ name: 'mcptrail-e2e-sse-client', version: '1.0.0' });
await client.connect(new SSEClientTransport(new URL(url), opts));
const { tools } = await client.listTools();
const res = await client.callTool({ name: 'echo', arguments: { message: 'over sse' } });
console.log(tools.length + ' tools; ' + res.content?.find((c) => c.type === 'text')?.text);
await client.close();
