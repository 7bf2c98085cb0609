import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import { ADMIN_PASSWORD, raw, TestJudge } from './harness.js';

type RawResponse = Awaited<ReturnType<typeof raw>>;

/** A Node Buffer as a fetch body. */
const bytes = (b: Buffer): Uint8Array<ArrayBuffer> => new Uint8Array(b);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every response these tests see passes through here, so a 5xx anywhere fails the test that met it. */
async function send(url: string, init: Parameters<typeof raw>[1] = {}): Promise<RawResponse> {
  const r = await raw(url, init);
  expect(r.status, `${init.method ?? 'GET'} ${url} answered ${r.status}: ${r.text}`).toBeLessThan(500);
  return r;
}

function expectProblem(r: RawResponse, status: number, code: string): void {
  expect(r.status, r.text).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.body).toMatchObject({ type: expect.any(String), title: expect.any(String), status, detail: expect.any(String), code });
  expect(r.body.detail.length).toBeGreaterThan(0);
  // 4xx bodies never carry internals
  expect(r.text).not.toMatch(/\bat .+\.(ts|js):\d+|SQLITE|sqlite|stack/i);
}

describe('HTTP core', () => {
  let j: TestJudge;
  let api: (path: string) => string;
  let origin: string;
  let admin: JudgeClient;
  beforeAll(async () => {
    j = await TestJudge.start({ config: { limits: { jsonBodyBytes: 1024 } } });
    api = (path) => `${j.url}/api/v1${path}`;
    origin = new URL(j.url).origin;
    admin = await j.admin();
  });
  afterAll(() => j.stop());

  const json = (body: unknown, extra: Record<string, string> = {}) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...extra },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

  it('answers unknown paths under /api/ with 404 not_found problem+json', async () => {
    expectProblem(await send(api('/x')), 404, 'not_found');
    expectProblem(await send(api('/x'), { method: 'POST', token: admin.accessToken! }), 404, 'not_found');
    expectProblem(await send(`${j.url}/api/v2/health`), 404, 'not_found');
    expectProblem(await send(`${j.url}/api/`), 404, 'not_found');
  });

  it('answers a method the path does not take with 405 and Allow', async () => {
    const r = await send(api('/identity/login'), { method: 'DELETE' });
    expectProblem(r, 405, 'method_not_allowed');
    expect(r.headers.get('allow') ?? '').toMatch(/POST/);
    const health = await send(api('/health'), { method: 'POST' });
    expectProblem(health, 405, 'method_not_allowed');
    expect(health.headers.get('allow') ?? '').toMatch(/GET/);
  });

  it('answers a method the server does not know with 405 on a known path and 404 elsewhere, never 5xx', async () => {
    const known = await send(api('/health'), { method: 'PROPFIND' });
    expectProblem(known, 405, 'method_not_allowed');
    expect(known.headers.get('allow') ?? '').toMatch(/GET/);
    expectProblem(await send(api('/identity/login'), { method: 'PURGE' }), 405, 'method_not_allowed');
    const unknown = await send(api('/nothing-here'), { method: 'PROPFIND' });
    expectProblem(unknown, 404, 'not_found');
    expect(unknown.headers.get('allow')).toBeNull();
  });

  it('answers malformed JSON with 400 request.malformed', async () => {
    const sessions = (await j.count('sessions'));
    expectProblem(await send(api('/identity/login'), json('{"email": "admin", "password": ')), 400, 'request.malformed');
    expectProblem(await send(api('/identity/login'), json('{email: admin}')), 400, 'request.malformed');
    expectProblem(await send(api('/users'), { ...json('{"username": '), token: admin.accessToken! }), 400, 'request.malformed');
    expect((await j.count('sessions'))).toBe(sessions);
  });

  it('answers a compressed body that does not decode with 400, and reads one that does', async () => {
    const sessions = (await j.count('sessions'));
    const gz = (body: Uint8Array<ArrayBuffer> | string) => ({ method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body });
    expectProblem(await send(api('/identity/login'), gz('not gzip at all')), 400, 'request.malformed');
    expectProblem(await send(api('/identity/login'), gz(bytes(gzipSync('{"email": "admin"}').subarray(0, 12)))), 400, 'request.malformed');
    expectProblem(
      await send(api('/identity/login'), { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'br' }, body: 'not brotli' }),
      400,
      'request.malformed',
    );
    expectProblem(
      await send(api('/identity/login'), { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'compress' }, body: '{}' }),
      415,
      'unsupported_media_type',
    );
    expect((await j.count('sessions'))).toBe(sessions);
    // the limit applies to the decoded body: a small gzip of a large document is still too large
    expectProblem(await send(api('/identity/login'), gz(bytes(gzipSync(JSON.stringify({ email: 'admin', password: ADMIN_PASSWORD, pad: 'x'.repeat(100_000) }))))), 413, 'payload_too_large');
    const ok = await send(api('/identity/login'), gz(bytes(gzipSync(JSON.stringify({ email: 'admin', password: ADMIN_PASSWORD })))));
    expect(ok.status, ok.text).toBe(200);
    const br = await send(api('/identity/login'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'br' },
      body: bytes(brotliCompressSync(JSON.stringify({ email: 'admin', password: ADMIN_PASSWORD }))),
    });
    expect(br.status, br.text).toBe(200);
    expect((await j.count('sessions'))).toBe(sessions + 2);
  });

  it('answers a JSON body over limits.jsonBodyBytes with 413 payload_too_large', async () => {
    const users = (await j.count('users'));
    const big = { email: 'admin', password: ADMIN_PASSWORD, padding: 'x'.repeat(2000) };
    expectProblem(await send(api('/identity/login'), json(big)), 413, 'payload_too_large');
    expectProblem(await send(api('/users'), { ...json({ username: 'big-one', note: 'x'.repeat(4000) }), token: admin.accessToken! }), 413, 'payload_too_large');
    expect((await j.count('users'))).toBe(users);
    // just under the limit is read (and refused on its merits, not its size)
    const small = await send(api('/identity/login'), json({ email: 'admin', password: ADMIN_PASSWORD, padding: 'x'.repeat(800) }));
    expect(small.status).toBe(200);
  });

  it('answers a non-JSON body on a JSON endpoint with 415', async () => {
    const sessions = (await j.count('sessions'));
    expectProblem(await send(api('/identity/login'), { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'email=admin' }), 415, 'unsupported_media_type');
    expectProblem(
      await send(api('/identity/login'), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `email=admin&password=${ADMIN_PASSWORD}` }),
      415,
      'unsupported_media_type',
    );
    expect((await j.count('sessions'))).toBe(sessions);
  });

  it('answers a uuid path parameter that is not a UUID with 404', async () => {
    expectProblem(await send(api('/files/not-a-uuid/meta'), { token: admin.accessToken! }), 404, 'not_found');
    expectProblem(await send(api('/files/0190A0B0-0000-7000-8000-000000000000/meta'), { token: admin.accessToken! }), 404, 'not_found');
    expectProblem(await send(api('/files/0190a0b0-0000-7000-8000-000000000000/meta'), { token: admin.accessToken! }), 404, 'not_found');
    // authentication comes first
    expectProblem(await send(api('/files/not-a-uuid/meta')), 401, 'unauthenticated');
  });

  it('echoes a sane X-Request-Id and generates one otherwise', async () => {
    const echoed = await send(api('/health'), { headers: { 'x-request-id': 'trace-42.abc_DEF' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-42.abc_DEF');
    const onError = await send(api('/x'), { headers: { 'x-request-id': 'trace-43' } });
    expect(onError.status).toBe(404);
    expect(onError.headers.get('x-request-id')).toBe('trace-43');
    for (const bad of ['has space', 'semi;colon', 'x'.repeat(65), '<script>']) {
      const r = await send(api('/health'), { headers: { 'x-request-id': bad } });
      expect(r.headers.get('x-request-id')).toMatch(UUID);
    }
    const a = await send(api('/health'));
    const b = await send(api('/health'));
    expect(a.headers.get('x-request-id')).toMatch(UUID);
    expect(b.headers.get('x-request-id')).toMatch(UUID);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it('sends the security headers on successes and failures', async () => {
    const responses = [
      await send(api('/health')),
      await send(api('/account'), { token: admin.accessToken! }),
      await send(api('/x')),
      await send(api('/account')),
      await send(api('/identity/login'), json('{')),
    ];
    for (const r of responses) {
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(r.headers.get('cache-control')).toBe('no-store');
    }
    expect(responses.map((r) => r.status)).toEqual([200, 200, 404, 401, 400]);
  });

  describe('cookie sessions and Origin', () => {
    let cookie: string;
    beforeAll(async () => {
      const c = j.anonymous();
      cookie = await c.loginWithCookie('admin', ADMIN_PASSWORD);
    });
    const withCookie = (extra: Record<string, string> = {}) => ({ cookie: `judge_session=${cookie}`, ...extra });
    const createUser = (username: string, extra: Record<string, string>) =>
      send(api('/users'), { method: 'POST', headers: { 'content-type': 'application/json', ...extra }, body: JSON.stringify({ username }) });

    it('refuses a cookie-authenticated write from another site or with a foreign Origin, changing nothing', async () => {
      const users = (await j.count('users'));
      // neither Origin nor Referer, but the browser says where it came from
      expectProblem(await createUser('csrf-none', withCookie({ 'sec-fetch-site': 'cross-site' })), 403, 'csrf.origin');
      expectProblem(await createUser('csrf-sibling', withCookie({ 'sec-fetch-site': 'same-site' })), 403, 'csrf.origin');
      // a matching Sec-Fetch-Site does not excuse a foreign Origin
      expectProblem(await createUser('csrf-foreign-fetch', withCookie({ origin: 'http://evil.example', 'sec-fetch-site': 'same-origin' })), 403, 'csrf.origin');
      expectProblem(await createUser('csrf-foreign', withCookie({ origin: 'http://evil.example' })), 403, 'csrf.origin');
      expectProblem(await createUser('csrf-null', withCookie({ origin: 'null' })), 403, 'csrf.origin');
      expectProblem(await createUser('csrf-port', withCookie({ origin: `http://127.0.0.1:${j.app.port + 1}` })), 403, 'csrf.origin');
      expectProblem(await createUser('csrf-referer', withCookie({ referer: 'http://evil.example/page' })), 403, 'csrf.origin');
      expect((await j.count('users'))).toBe(users);

      const account = await send(api('/account'), {
        method: 'PUT',
        headers: withCookie({ 'content-type': 'application/json', origin: 'http://evil.example' }),
        body: JSON.stringify({ firstName: 'Mallory' }),
      });
      expectProblem(account, 403, 'csrf.origin');
      expect((await send(api('/account'), { headers: withCookie() })).body.firstName).toBeUndefined();

      // a forged logout ends nothing
      expectProblem(await send(api('/identity/logout'), { method: 'POST', headers: withCookie({ 'sec-fetch-site': 'cross-site' }) }), 403, 'csrf.origin');
      expect((await send(api('/account'), { headers: withCookie() })).status).toBe(200);
    });

    it('takes the same write with the right Origin or Referer, and safe methods without either', async () => {
      const users = (await j.count('users'));
      const ok = await createUser('csrf-ok', withCookie({ origin }));
      expect(ok.status, ok.text).toBe(201);
      expect(ok.headers.get('location')).toBe(`/api/v1/users/${ok.body.userId}`);
      const byReferer = await createUser('csrf-referer-ok', withCookie({ referer: `${origin}/some/page` }));
      expect(byReferer.status, byReferer.text).toBe(201);
      expect((await j.count('users'))).toBe(users + 2);
      expect((await send(api('/account'), { headers: withCookie() })).status).toBe(200);
    });

    it('takes a write that carries neither Origin nor Referer when Sec-Fetch-Site is absent or same-origin', async () => {
      const users = (await j.count('users'));
      const bare = await createUser('csrf-bare', withCookie());
      expect(bare.status, bare.text).toBe(201);
      const same = await createUser('csrf-same-origin', withCookie({ 'sec-fetch-site': 'same-origin' }));
      expect(same.status, same.text).toBe(201);
      expect((await j.count('users'))).toBe(users + 2);
      // the header names a site only beside a missing Origin: with the right Origin it is not asked
      const both = await createUser('csrf-origin-and-site', withCookie({ origin, 'sec-fetch-site': 'same-origin' }));
      expect(both.status, both.text).toBe(201);
    });

    it('lets a bearer write through without Origin', async () => {
      const users = (await j.count('users'));
      const r = await createUser('bearer-no-origin', { authorization: `Bearer ${admin.accessToken}` });
      expect(r.status, r.text).toBe(201);
      const foreign = await createUser('bearer-foreign-origin', { authorization: `Bearer ${admin.accessToken}`, origin: 'http://evil.example' });
      expect(foreign.status, foreign.text).toBe(201);
      expect((await j.count('users'))).toBe(users + 2);
    });
  });

  it('still answers 200 to the admin after everything above (no failure broke the server)', async () => {
    expect(await admin.call(ops.getAccount)).toMatchObject({ username: 'admin' });
  });
});
