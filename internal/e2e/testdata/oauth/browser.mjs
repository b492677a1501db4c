// A "browser" for mcp-remote (run through BROWSER): it opens the
// authorization URL without a human, follows the authorization server's
// redirect back to mcp-remote's loopback callback, and exits 0 once the
// callback answered. With BROWSER_PROXY set, the authorization request goes
// through that forward proxy; the callback never does.
//   node browser.mjs AUTHORIZATION_URL
import { ProxyAgent } from 'undici';

const url = process.argv[2];
const opts = { redirect: 'manual' };
if (process.env.BROWSER_PROXY) opts.dispatcher = new ProxyAgent(process.env.BROWSER_PROXY);
try {
  const { fetch } = await import('undici');
  const res = await fetch(url, opts);
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`authorization endpoint answered ${res.status}, not a redirect`);
  const cb = await fetch(location);
  await cb.text();
  if (!cb.ok) throw new Error(`callback answered ${cb.status}`);
} catch (err) {
  console.error('browser:', err);
  process.exit(1);
}
