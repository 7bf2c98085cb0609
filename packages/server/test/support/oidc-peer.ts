import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type AccountClaims } from 'oidc-provider';

/**
 * A real OpenID provider for the sign-in tests (`oidc-provider`, the 8.x line that runs on Node 20),
 * on an ephemeral loopback port. Its login and consent are answered at once for whoever `as()` names
 * next, so a test drives the whole authorization-code round trip over real HTTP; `claims` are what
 * the provider says of each account.
 */
export interface OidcPeer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The account the next login is made for, and what the provider says of it. */
  as(sub: string, claims: Omit<AccountClaims, 'sub'>): void;
  close(): Promise<void>;
}

export async function startOidcPeer(redirectUris: string[]): Promise<OidcPeer> {
  const accounts = new Map<string, Omit<AccountClaims, 'sub'>>();
  let next = '';
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'peer-key', use: 'sig', alg: 'RS256' };
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'judge';
  const clientSecret = 'peer-client-secret-0123456789abcdef';
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris, grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' }],
    jwks: { keys: [jwk as never] },
    cookies: { keys: ['peer-cookie-key'] },
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'preferred_username'], groups: ['groups'] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id, ...(accounts.get(id) ?? {}) }) }),
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, AuthorizationCode: 600, IdToken: 600 },
  });
  const callback = provider.callback();
  server.on('request', (req, res) => {
    const m = /^\/interaction\/([^/?]+)/.exec(req.url ?? '');
    if (!m) return void callback(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'login') {
        await provider.interactionFinished(req, res, { login: { accountId: next } }, { mergeWithLastSubmission: false });
        return;
      }
      const grant = new provider.Grant({ accountId: details.session!.accountId, clientId });
      grant.addOIDCScope('openid email profile groups');
      await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
    })().catch((e: unknown) => {
      res.statusCode = 500;
      res.end(String(e));
    });
  });
  return {
    issuer,
    clientId,
    clientSecret,
    as(sub, claims) {
      next = sub;
      accounts.set(sub, claims);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Follows a sign-in as a browser would: every redirect, keeping each host's cookies, until an
 * answer that is no redirect or a redirect `stop` names: a URL under that site that is not under
 * its `/api/` (the judge's own pages), or one the function accepts. Answers that last response,
 * the redirect's target and the cookies.
 */
export async function browse(
  start: string,
  stop: string | ((url: string) => boolean),
  jar = new Map<string, Map<string, string>>(),
): Promise<{ status: number; location?: string; body: string; jar: Map<string, Map<string, string>> }> {
  const stops = typeof stop === 'function' ? stop : (u: string) => u.startsWith(stop) && !u.startsWith(`${stop}/api/`);
  let url = start;
  for (let hops = 0; hops < 20; hops++) {
    const u = new URL(url);
    const cookies = jar.get(u.host) ?? new Map<string, string>();
    const res = await fetch(url, { redirect: 'manual', headers: cookies.size ? { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {} });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (value && !/max-age=0|expires=thu, 01 jan 1970/i.test(line)) cookies.set(name, value);
      else cookies.delete(name);
    }
    jar.set(u.host, cookies);
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) return { status: res.status, body: await res.text(), jar };
    const nextUrl = new URL(location, url).href;
    if (stops(nextUrl)) return { status: res.status, location: nextUrl, body: '', jar };
    url = nextUrl;
  }
  throw new Error('more than 20 redirects');
}

/**
 * A provider that signs its ID tokens with a key it does not publish: what a forged or tampered
 * token looks like to the judge. Login is immediate (the authorization endpoint sends the code back
 * at once); everything else is as an OpenID provider answers.
 */
export async function startForgingPeer(): Promise<{ issuer: string; close(): Promise<void> }> {
  const { SignJWT } = await import('jose');
  const published = await generateKeyPair('RS256', { extractable: true });
  const signing = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(published.publicKey)), kid: 'k1', use: 'sig', alg: 'RS256' };
  const codes = new Map<string, string>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const json = (v: unknown) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(v));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      return json({ issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks`, response_types_supported: ['code'], subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['RS256'], code_challenge_methods_supported: ['S256'] });
    }
    if (url.pathname === '/jwks') return json({ keys: [jwk] });
    if (url.pathname === '/auth') {
      const code = crypto.randomUUID();
      codes.set(code, url.searchParams.get('nonce') ?? '');
      res.statusCode = 302;
      res.setHeader('location', `${url.searchParams.get('redirect_uri')}?code=${code}&state=${encodeURIComponent(url.searchParams.get('state') ?? '')}&iss=${encodeURIComponent(issuer)}`);
      return res.end();
    }
    if (url.pathname === '/token') {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const code = new URLSearchParams(raw).get('code') ?? '';
        void new SignJWT({ nonce: codes.get(code), email: 'mallory@school.example', email_verified: true, groups: ['teachers'] })
          .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
          .setIssuer(issuer)
          .setAudience('judge')
          .setSubject('mallory')
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(signing.privateKey)
          .then((idToken) => json({ access_token: 'at', token_type: 'Bearer', expires_in: 300, id_token: idToken }));
      });
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { issuer, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
