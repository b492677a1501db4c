// An OAuth client on the TypeScript SDK v2 (@modelcontextprotocol/client):
// connects to SERVER_URL, completes the authorization-code flow with PKCE
// through MemoryProvider (the callback's iss checked per RFC 9207), calls
// the whoami tool and prints its answer.
//   node sdk-v2.mjs SERVER_URL [PROXY_URL]
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { args, MemoryProvider, report, useProxy } from './common.mjs';

const { serverURL, proxyURL } = args();
useProxy(proxyURL);
const provider = new MemoryProvider('mcptrail-e2e-sdk-v2', 'client_secret_basic');
const client = new Client({ name: 'mcptrail-e2e-sdk-v2', version: '2.0.0' });
const transport = () => new StreamableHTTPClientTransport(new URL(serverURL), { authProvider: provider });
try {
  const first = transport();
  try {
    await client.connect(first);
  } catch (err) {
    if (!(err instanceof UnauthorizedError) || !provider.callback) throw err;
    await first.finishAuth(provider.callback.searchParams);
    await client.connect(transport());
  }
  report(await client.callTool({ name: 'whoami', arguments: {} }));
  await client.close();
} catch (err) {
  console.error('sdk-v2:', err);
  process.exit(1);
}
