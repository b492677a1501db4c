// Shared by the OAuth end-to-end clients (sdk-v1.mjs, sdk-v2.mjs): the
// proxy set-up and an in-memory OAuth client provider whose "browser"
// fetches the authorization URL itself and keeps the redirect it answers.
import { EnvHttpProxyAgent, setGlobalDispatcher } from 'undici';
import { randomBytes } from 'node:crypto';

// useProxy routes every fetch of this process (the SDK's included) through
// the forward proxy at proxyURL; Node 20's fetch ignores HTTP(S)_PROXY.
// proxyTunnel: false sends http:// requests in absolute form, which the
// proxy reads; undici's default tunnels them through CONNECT as it does
// https://.
export function useProxy(proxyURL) {
  if (!proxyURL) return;
  setGlobalDispatcher(new EnvHttpProxyAgent({ httpProxy: proxyURL, httpsProxy: proxyURL, noProxy: '', proxyTunnel: false }));
}

// args reads the command line: SERVER_URL [PROXY_URL].
export function args() {
  const [serverURL, proxyURL] = process.argv.slice(2);
  if (!serverURL) {
    console.error('usage: node SCRIPT SERVER_URL [PROXY_URL]');
    process.exit(2);
  }
  return { serverURL, proxyURL };
}

// MemoryProvider is an OAuthClientProvider (SDK v1 and v2 share the shape)
// that keeps everything in memory.
export class MemoryProvider {
  constructor(clientName, authMethod) {
    this._clientName = clientName;
    this._authMethod = authMethod;
    this._state = 'state-' + randomBytes(8).toString('hex');
    this.callback = undefined; // the URL the authorization server redirected to
  }
  get redirectUrl() { return 'http://127.0.0.1:9/oauth/callback'; }
  get clientMetadata() {
    return {
      client_name: this._clientName,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this._authMethod,
    };
  }
  state() { return this._state; }
  clientInformation() { return this._client; }
  saveClientInformation(info) { this._client = info; }
  tokens() { return this._tokens; }
  saveTokens(tokens) { this._tokens = tokens; }
  saveCodeVerifier(v) { this._verifier = v; }
  codeVerifier() { return this._verifier; }

  // redirectToAuthorization plays the browser: the test authorization
  // server approves at once, so its answer is the redirect back.
  async redirectToAuthorization(url) {
    const res = await fetch(url, { redirect: 'manual' });
    const location = res.headers.get('location');
    if (res.status !== 302 || !location) {
      throw new Error(`authorization endpoint answered ${res.status}, not a redirect`);
    }
    const cb = new URL(location);
    if (cb.searchParams.get('state') !== this._state) throw new Error('authorization response: state mismatch');
    if (cb.searchParams.get('error')) throw new Error('authorization response: error ' + cb.searchParams.get('error'));
    this.callback = cb;
  }
}

// report prints the tool's text as one JSON line on stdout.
export function report(result) {
  const text = result.content?.find((c) => c.type === 'text')?.text;
  console.log(JSON.stringify({ tool: text, isError: !!result.isError }));
}
