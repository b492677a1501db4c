// A TypeScript SDK client (v1: @modelcontextprotocol/sdk, v2:
// @modelcontextprotocol/client) that calls server-everything's
// trigger-long-running-operation (2 s, no progress token: its stream
// carries no event) and aborts the call (AbortSignal) after 300 ms, then
// calls echo on the same session and closes. It prints one JSON line:
// how the long call ended and echo's text.
//   node cancel.mjs v1|v2 SERVER_URL [PROXY_URL]
import { EnvHttpProxyAgent, setGlobalDispatcher } from 'undici';

const [sdk, serverURL, proxyURL] = process.argv.slice(2);
if (proxyURL) {
  // Node 20's fetch ignores HTTP_PROXY; absolute-form http:// requests
  // (proxyTunnel: false) are what the forward proxy reads.
  setGlobalDispatcher(new EnvHttpProxyAgent({ httpProxy: proxyURL, httpsProxy: proxyURL, noProxy: '', proxyTunnel: false }));
}
let Client, StreamableHTTPClientTransport;
if (sdk === 'v1') {
  ({ Client } = await import('@modelcontextprotocol/sdk/client/index.js'));
  ({ StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js'));
} else {
  ({ Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client'));
}
const client = new Client({ name: 'mcptrail-e2e-cancel-' + sdk, version: '1.0.0' });
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(serverURL)));
  const ac = new AbortController();
  let slow;
  try {
    const params = { name: 'trigger-long-running-operation', arguments: { duration: 2, steps: 20 } };
    const options = { signal: ac.signal, timeout: 60000 };
    setTimeout(() => ac.abort('the user gave up'), 300);
    // v1 takes a result schema before the options; v2 does not.
    await (sdk === 'v1' ? client.callTool(params, undefined, options) : client.callTool(params, options));
    slow = 'answered';
  } catch (err) {
    slow = ac.signal.aborted ? 'aborted' : 'failed: ' + err;
  }
  const quick = await client.callTool({ name: 'echo', arguments: { message: 'quick' } });
  console.log(JSON.stringify({ slow, quick: quick.content?.find((c) => c.type === 'text')?.text }));
  await client.close();
} catch (err) {
  console.error('cancel.mjs:', err);
  process.exit(1);
}
