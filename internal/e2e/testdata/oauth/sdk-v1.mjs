// An OAuth client on the TypeScript SDK v1 (@modelcontextprotocol/sdk):
// connects to SERVER_URL, completes the authorization-code flow with PKCE
// through MemoryProvider, calls the whoami tool and prints its answer.
//   node sdk-v1.mjs SERVER_URL [PROXY_URL]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { args, MemoryProvider, report, useProxy } from './common.mjs';

const { serverURL, proxyURL } = args();
useProxy(proxyURL);
const provider = new MemoryProvider('mcptrail-e2e-sdk-v1', 'client_secret_post');
const client = new Client({ name: 'mcptrail-e2e-sdk-v1', version: '1.0.0' });
const transport = () => new StreamableHTTPClientTransport(new URL(serverURL), { authProvider: provider });
try {
  const first = transport();
  try {
    await client.connect(first);
  } catch (err) {
    if (!(err instanceof UnauthorizedError) || !provider.callback) throw err;
    await first.finishAuth(provider.callback.searchParams.get('code'));
    await client.connect(transport());
  }
  report(await client.callTool({ name: 'whoami', arguments: {} }));
  await client.close();
} catch (err) {
  console.error('sdk-v1:', err);
  process.exit(1);
}
