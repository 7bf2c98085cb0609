import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT, type CryptoKey, type JWTPayload } from 'jose';

/**
 * A simulated LMS (an LTI 1.3 platform) on an ephemeral loopback port, for the launch tests: it
 * publishes its key set, answers the judge's login redirect at its authorization endpoint with
 * the form a browser would post back (an ID token carrying the nonce it was given), issues access
 * tokens only for a client assertion that verifies against the judge's published keys, and keeps
 * every score a line item receives.
 */

export const ROLE = {
  learner: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner',
  instructor: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
};

/** What the next ID token says; the defaults make a valid resource link launch. */
export interface LaunchSpec {
  sub: string;
  roles?: string[];
  custom?: Record<string, string>;
  resourceLinkId?: string;
  contextId?: string;
  /** Merged over the claims as they are made (aud, exp, deployment id, message type...). */
  claims?: JWTPayload;
  /** A key the platform does not publish: what a forged token looks like. */
  forged?: boolean;
  /** The line item the AGS claim names, with the score scope. */
  lineItem?: string;
  /** The deployment the login initiation names (the platform's own by default). */
  loginDeployment?: string;
}

export interface ReceivedScore {
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: Record<string, unknown>;
}

export interface SimulatedPlatform {
  issuer: string;
  clientId: string;
  deploymentId: string;
  keySetUrl: string;
  authTokenUrl: string;
  authLoginUrl: string;
  /** A line item URL of this platform (with the query string Moodle's carry). */
  lineItemUrl(id: string): string;
  next(spec: LaunchSpec): void;
  /** The query the judge's redirect brought to the authorization endpoint, newest last. */
  authorizations: URLSearchParams[];
  tokenRequests: { verified: boolean; reason?: string }[];
  scores: ReceivedScore[];
  /** The next `n` score posts answer 503. */
  failScores(n: number): void;
  close(): Promise<void>;
}

export const DEPLOYMENT = 'https://purl.imsglobal.org/spec/lti/claim/deployment_id';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => resolve(raw));
  });
}

/** The ID token the authorization endpoint answers with. */
async function idToken(p: { issuer: string; clientId: string; deploymentId: string }, spec: LaunchSpec, nonce: string, key: CryptoKey, kid: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims: JWTPayload = {
    iss: p.issuer,
    aud: p.clientId,
    sub: spec.sub,
    nonce,
    iat: now,
    exp: now + 300,
    given_name: 'Ann',
    family_name: 'Lee',
    email: `${spec.sub}@school.example`,
    'https://purl.imsglobal.org/spec/lti/claim/message_type': 'LtiResourceLinkRequest',
    'https://purl.imsglobal.org/spec/lti/claim/version': '1.3.0',
    [DEPLOYMENT]: p.deploymentId,
    'https://purl.imsglobal.org/spec/lti/claim/resource_link': { id: spec.resourceLinkId ?? 'link-1' },
    'https://purl.imsglobal.org/spec/lti/claim/context': { id: spec.contextId ?? 'course-1', title: 'Programming' },
    'https://purl.imsglobal.org/spec/lti/claim/roles': spec.roles ?? [ROLE.learner],
    'https://purl.imsglobal.org/spec/lti/claim/custom': spec.custom ?? {},
    ...(spec.lineItem
      ? { 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint': { scope: ['https://purl.imsglobal.org/spec/lti-ags/scope/score'], lineitem: spec.lineItem } }
      : {}),
    ...spec.claims,
  };
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid }).sign(key);
}

/** The page a platform answers with response_mode=form_post: a form the browser posts at once. */
function formPost(action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields).map(([k, v]) => `<input type="hidden" name="${k}" value="${v}">`);
  return `<html><body onload="document.forms[0].submit()"><form method="post" action="${action}">${inputs.join('')}</form></body></html>`;
}

/** `toolKeySet`: the judge's /api/v1/lti/jwks.json, against which client assertions are checked. */
export async function startLtiPlatform(toolKeySet: string): Promise<SimulatedPlatform> {
  const published = await generateKeyPair('RS256', { extractable: true });
  const unpublished = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(published.publicKey)), kid: 'platform-key', use: 'sig', alg: 'RS256' };
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const p = { issuer, clientId: 'judge-tool', deploymentId: 'deployment-1' };
  const state = { spec: { sub: 'nobody' } as LaunchSpec, failing: 0, tokens: new Set<string>() };
  const sim: SimulatedPlatform = {
    ...p,
    keySetUrl: `${issuer}/jwks`,
    authTokenUrl: `${issuer}/token`,
    authLoginUrl: `${issuer}/auth`,
    lineItemUrl: (id) => `${issuer}/lineitems/${id}/lineitem?type_id=1`,
    next: (spec) => void (state.spec = spec),
    authorizations: [],
    tokenRequests: [],
    scores: [],
    failScores: (n) => void (state.failing = n),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const json = (res: import('node:http').ServerResponse, status: number, v: unknown) => {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(v));
  };

  // the client assertion must be the tool's: signed with a key it publishes, issued by and for the client, addressed to this endpoint
  const token = async (raw: string) => {
    const form = new URLSearchParams(raw);
    try {
      if (form.get('grant_type') !== 'client_credentials') throw new Error(`grant_type ${form.get('grant_type')}`);
      if (form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer') throw new Error('client_assertion_type');
      await jwtVerify(form.get('client_assertion') ?? '', createRemoteJWKSet(new URL(toolKeySet)), { issuer: p.clientId, subject: p.clientId, audience: sim.authTokenUrl, algorithms: ['RS256'] });
      sim.tokenRequests.push({ verified: true });
      const t = `token-${crypto.randomUUID()}`;
      state.tokens.add(t);
      return { status: 200, body: { access_token: t, token_type: 'Bearer', expires_in: 3600, scope: form.get('scope') } };
    } catch (e) {
      sim.tokenRequests.push({ verified: false, reason: (e as Error).message });
      return { status: 401, body: { error: 'invalid_client' } };
    }
  };

  server.on('request', (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', issuer);
      if (url.pathname === '/jwks') return json(res, 200, { keys: [jwk] });
      if (url.pathname === '/auth') {
        sim.authorizations.push(url.searchParams);
        const spec = state.spec;
        const key = spec.forged ? unpublished.privateKey : published.privateKey;
        const signed = await idToken(p, spec, url.searchParams.get('nonce') ?? '', key, 'platform-key');
        res.setHeader('content-type', 'text/html');
        return res.end(formPost(url.searchParams.get('redirect_uri') ?? '', { id_token: signed, state: url.searchParams.get('state') ?? '' }));
      }
      const raw = await readBody(req);
      if (url.pathname === '/token' && req.method === 'POST') {
        const answer = await token(raw);
        return json(res, answer.status, answer.body);
      }
      if (/^\/lineitems\/[^/]+\/lineitem\/scores$/.test(url.pathname) && req.method === 'POST') {
        const bearer = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
        if (!state.tokens.has(bearer)) return json(res, 401, { error: 'invalid_token' });
        if (state.failing > 0) {
          state.failing--;
          return json(res, 503, { error: 'busy' });
        }
        sim.scores.push({ path: `${url.pathname}${url.search}`, authorization: req.headers.authorization, contentType: req.headers['content-type'], body: JSON.parse(raw) as Record<string, unknown> });
        return json(res, 200, {});
      }
      json(res, 404, { error: 'not found' });
    })().catch((e: unknown) => {
      res.statusCode = 500;
      res.end(String(e));
    });
  });
  return sim;
}

/** What a browser's trip through a launch gave: the judge's last answer, its cookie, and what was posted. */
export interface LaunchTrip {
  status: number;
  location: string | null;
  cookie: string | undefined;
  /** The whole Set-Cookie line of the session cookie. */
  cookieLine: string | undefined;
  html: string;
  form: { id_token: string; state: string };
}

/** The judge's session cookie a response sets, if any. */
export const sessionCookieOf = (res: Response) => cookieLineOf(res)?.split(';')[0]!.slice('judge_session='.length);
const cookieLineOf = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith('judge_session='));

/** Posts a form to the judge as the platform's page makes the browser do: cross-site, from the platform's origin. */
export function postForm(url: string, fields: Record<string, string>, from: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(from).origin, 'sec-fetch-site': 'cross-site', ...headers },
    body: new URLSearchParams(fields),
  });
}

/**
 * A launch as a browser makes it: the platform's login initiation at the judge, the judge's
 * redirect to the platform's authorization endpoint, the platform's auto-posting form back to the
 * judge. `headers`: extra headers of the last post (Sec-Fetch-Dest: iframe for a framed launch).
 */
export async function launch(judgeUrl: string, sim: SimulatedPlatform, spec: LaunchSpec, headers: Record<string, string> = {}): Promise<LaunchTrip> {
  sim.next(spec);
  const deployment = spec.loginDeployment ?? sim.deploymentId;
  const initiation = new URLSearchParams({ iss: sim.issuer, login_hint: spec.sub, target_link_uri: `${judgeUrl}/`, client_id: sim.clientId, lti_deployment_id: deployment });
  const toPlatform = await fetch(`${judgeUrl}/api/v1/lti/login?${initiation}`, { redirect: 'manual' });
  if (toPlatform.status !== 302) throw new Error(`login initiation answered ${toPlatform.status}: ${await toPlatform.text()}`);
  const page = await (await fetch(toPlatform.headers.get('location')!)).text();
  const action = /action="([^"]+)"/.exec(page)![1]!;
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)![1]!;
  const form = { id_token: field('id_token'), state: field('state') };
  const res = await postForm(action, form, sim.issuer, headers);
  return { status: res.status, location: res.headers.get('location'), cookie: sessionCookieOf(res), cookieLine: cookieLineOf(res), html: await res.text(), form };
}

/** The refusal code a launch page carries. */
export const refusalCode = (html: string) => /data-lti-error="([^"]+)"/.exec(html)?.[1];
