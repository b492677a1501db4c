// The client command the conformance harness runs for a client scenario,
// with the harness's server URL as its last argument: it puts
// `mcptrail http` ($MCPTRAIL_BIN, capture $TAP_CAPTURE) in front of that
// server, runs a real client against the tap, then stops the tap with
// SIGINT. The client is the TS SDK v2 (`v2`) in this process, or the
// go-sdk client $GO_CLIENT (`go`): both list the tools, call each with no
// arguments and close.
//   node tapclient.mjs v2|go SERVER_URL
import { spawn } from 'node:child_process';
import { once } from 'node:events';

const kind = process.argv[2];
const serverURL = process.argv[process.argv.length - 1];
const tap = spawn(process.env.MCPTRAIL_BIN, ['http', '--listen', '127.0.0.1:0', '--target', serverURL, '--capture', process.env.TAP_CAPTURE],
  { stdio: ['ignore', 'inherit', 'pipe'] });
const exited = once(tap, 'exit');
const tapURL = await new Promise((resolve, reject) => {
  let text = '';
  tap.stderr.on('data', (b) => {
    process.stderr.write(b);
    text += b;
    const m = /listening on (http:\/\/\S+\/)/.exec(text);
    if (m) resolve(m[1]);
  });
  tap.on('exit', (code) => reject(new Error('mcptrail http exited ' + code + ' before listening')));
});
let failed = false;
try {
  if (kind === 'v2') {
    const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const client = new Client({ name: 'mcptrail-e2e-v2-client', version: '2.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(tapURL)));
    const { tools } = await client.listTools();
    for (const t of tools) {
      const res = await client.callTool({ name: t.name, arguments: {} });
      console.log(t.name + ': ' + res.content?.find((c) => c.type === 'text')?.text);
    }
    await client.close();
  } else {
    const child = spawn(process.env.GO_CLIENT, [tapURL], { stdio: 'inherit' });
    const [code] = await once(child, 'exit');
    if (code !== 0) throw new Error('the go-sdk client exited ' + code);
  }
} catch (err) {
  console.error('tapclient:', err);
  failed = true;
}
tap.kill('SIGINT');
const [code] = await exited;
process.exit(failed || code !== 0 ? 1 : 0);
