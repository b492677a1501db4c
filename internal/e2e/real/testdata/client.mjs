// A TypeScript SDK client for the sweep, v1 (@modelcontextprotocol/sdk
// 1.32.2) or v2 (@modelcontextprotocol/client 2.4.0):
//   node client.mjs v1|v2-legacy|v2-auto stdio COMMAND ARGS...
//   node client.mjs v1|v2-legacy|v2-auto http URL
//   node client.mjs v1|v2-legacy|v2-auto forward URL PROXY_URL
// It answers elicitations (a form is filled from its schema, a URL is
// accepted), sampling and roots/list, then calls every tool of the plan
// the server offers: progress, a call it cancels after the first progress
// notification, sampling, roots (after notifications/roots/list_changed),
// form and URL elicitation, list_changed. It prints one JSON line: what it
// called and what came back, for the test to check the session was real.
const [sdk, transportKind, ...rest] = process.argv.slice(2);
const v1 = sdk === 'v1';
const mod = v1
  ? {
      ...(await import('@modelcontextprotocol/sdk/client/index.js')),
      ...(await import('@modelcontextprotocol/sdk/client/stdio.js')),
      ...(await import('@modelcontextprotocol/sdk/client/streamableHttp.js')),
      ...(await import('@modelcontextprotocol/sdk/types.js')),
    }
  : { ...(await import('@modelcontextprotocol/client')), ...(await import('@modelcontextprotocol/client/stdio')) };

const capabilities = { elicitation: { form: {}, url: {} }, sampling: {}, roots: { listChanged: true } };
const options = { capabilities };
if (!v1) options.versionNegotiation = { mode: sdk === 'v2-auto' ? 'auto' : 'legacy' };
const client = new mod.Client({ name: `e2e-ts-${sdk}`, version: '1.0.0' }, options);
const handle = (schema, method, fn) => client.setRequestHandler(v1 ? schema : method, fn);
const asked = [];

// fill answers a form with values its requestedSchema accepts.
function fill(schema) {
  const out = {};
  for (const [k, p] of Object.entries(schema.properties ?? {})) {
    const v = value(p);
    if (v !== undefined) out[k] = v;
  }
  return out;
}
function value(p) {
  if (p.enum) return p.enum[0];
  if (p.oneOf) return p.oneOf[0].const;
  if (p.anyOf) return p.anyOf[0].const;
  switch (p.type) {
    case 'boolean': return p.default ?? true;
    case 'integer': case 'number': return p.default ?? Math.max(p.minimum ?? 1, 1);
    case 'array': {
      const items = p.items ?? {};
      const first = items.enum?.[0] ?? items.anyOf?.[0]?.const ?? items.oneOf?.[0]?.const;
      return first === undefined ? [] : [first];
    }
    case 'string': {
      if (p.default !== undefined) return p.default;
      switch (p.format) {
        case 'email': return 'sweep@example.com';
        case 'uri': return 'https://example.com/sweep';
        case 'date': return '2026-12-02';
        case 'date-time': return '2026-12-02T01:00:00Z';
      }
      return 'sweep'.padEnd(p.minLength ?? 0, 'x');
    }
  }
  return undefined;
}

handle(mod.ElicitRequestSchema, 'elicitation/create', async (req) => {
  const p = req.params;
  asked.push(p.mode === 'url' ? 'url' : 'form');
  if (p.mode === 'url') return { action: 'accept' };
  return { action: 'accept', content: fill(p.requestedSchema) };
});
handle(mod.CreateMessageRequestSchema, 'sampling/createMessage', async () => {
  asked.push('sampling');
  return { role: 'assistant', content: { type: 'text', text: 'proxies pass / every byte untouched / the log remembers' }, model: 'e2e-model', stopReason: 'endTurn' };
});
handle(mod.ListRootsRequestSchema, 'roots/list', async () => {
  asked.push('roots');
  return { roots: [{ uri: 'file:///tmp/sweep', name: 'sweep' }] };
});

if (transportKind === 'forward') {
  // Every fetch of this process goes through the forward proxy (Node 20's
  // fetch ignores HTTP_PROXY); http:// requests in absolute form.
  const { EnvHttpProxyAgent, setGlobalDispatcher } = await import('undici');
  setGlobalDispatcher(new EnvHttpProxyAgent({ httpProxy: rest[1], httpsProxy: rest[1], noProxy: '', proxyTunnel: false }));
}
const transport = transportKind === 'stdio'
  ? new mod.StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: 'inherit' })
  : new mod.StreamableHTTPClientTransport(new URL(rest[0]));
await client.connect(transport);

const call = (params, opts = {}) => (v1 ? client.callTool(params, undefined, opts) : client.callTool(params, opts));
const texts = (r) => (r.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join(' ').slice(0, 80);
const report = { tools: [], calls: {}, progress: 0, cancelled: [], listChanged: 0 };
client.setNotificationHandler(v1 ? mod.ToolListChangedNotificationSchema : 'notifications/tools/list_changed', async () => { report.listChanged++; });

// cancel calls name and aborts it after its first progress notification.
async function cancel(name, args) {
  const ac = new AbortController();
  try {
    await call({ name, arguments: args }, { signal: ac.signal, onprogress: () => ac.abort('sweep cancels'), timeout: 60000 });
    report.cancelled.push(`${name}: finished`);
  } catch (err) {
    report.cancelled.push(ac.signal.aborted ? name : `${name}: ${err}`);
  }
}
const progress = { onprogress: () => { report.progress++; }, resetTimeoutOnProgress: true };
const dataURI = 'data:text/plain;base64,' + Buffer.from('sweep '.repeat(20)).toString('base64');
// plan: tool name -> how to call it (server-everything, the v2 server,
// the go-sdk and mcp-go servers).
const plan = {
  'trigger-long-running-operation': async (n) => { await run(n, { duration: 1, steps: 2 }, progress); await cancel(n, { duration: 20, steps: 20 }); },
  'trigger-sampling-request': (n) => run(n, { prompt: 'a haiku', maxTokens: 32 }),
  'get-roots-list': async (n) => { await rootsChanged(); await run(n, {}); },
  'trigger-elicitation-request': (n) => run(n, {}),
  'trigger-url-elicitation': (n) => run(n, { url: 'https://example.com/sweep-login' }),
  'gzip-file-as-resource': (n) => run(n, { name: 'sweep.txt', data: dataURI }),
  'echo': (n) => run(n, { message: 'hi', text: 'hi' }),
  ask: (n) => run(n, {}), visit: (n) => run(n, {}), sample: (n) => run(n, {}),
  roots: async (n) => { await rootsChanged(); await run(n, {}); },
  work: (n) => run(n, {}, progress),
  slow: (n) => cancel(n, {}),
  grow: async (n) => { await run(n, {}); report.toolsAfter = await tools(); },
  confirm: (n) => run(n, {}), chained: (n) => run(n, {}), book: (n) => run(n, {}),
};
// run calls a tool and notes how it ended; a call that throws is noted
// too, so the session goes on and its capture is checked whole.
async function run(name, args, opts) {
  try {
    const r = await call({ name, arguments: args }, opts);
    report.calls[name] = `${r.isError ? 'error' : 'ok'}: ${texts(r)}`;
  } catch (err) {
    report.calls[name] = `throw: ${String(err.message ?? err).slice(0, 120)}`;
  }
}
// rootsChanged announces notifications/roots/list_changed where the era
// has it (2026-07-28 removed it: v2 refuses to send it there).
async function rootsChanged() {
  try {
    await client.sendRootsListChanged();
    report.rootsChanged = true;
  } catch (err) {
    report.rootsChanged = false;
  }
}
// tools lists every page of tools/list.
async function tools() {
  const names = [];
  let cursor;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    names.push(...page.tools.map((t) => t.name));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return names.sort();
}
const listed = await tools();
report.tools = listed;
for (const name of Object.keys(plan)) {
  if (listed.includes(name)) await plan[name](name);
}
report.asked = asked.sort();
await client.close();
console.log(JSON.stringify(report));
