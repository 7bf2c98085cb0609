import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestJudge } from './harness.js';
import { attrs, login, req, sessionCookie } from './support/identity.js';

/**
 * The session cookie's `Secure` attribute: behind a proxy that ends TLS the
 * server sees plain http, so the configured public URL, not the connection, decides it.
 */

async function judgeAt(publicUrl: string, more: { trustProxy?: boolean } = {}): Promise<TestJudge> {
  return TestJudge.start({ config: { publicUrl, ...more } });
}

async function cookieLine(j: TestJudge, headers: Record<string, string> = {}): Promise<{ value: string; line: string }> {
  const u = await j.user(`u${Math.random().toString(36).slice(2, 10)}`);
  const r = await req(j, 'POST', '/identity/login?useCookies=true', { body: { email: u.username, password: u.password }, headers });
  expect(r.status, r.text).toBe(200);
  return sessionCookie(r);
}

describe('behind --public-url https://…', () => {
  let j: TestJudge;
  beforeAll(async () => (j = await judgeAt('https://judge.example.org')));
  afterAll(() => j.stop());

  it('sets the session cookie Secure though the request reached the server over plain http', async () => {
    const c = await cookieLine(j);
    expect(attrs(c.line)).toContain('secure');
    expect(attrs(c.line)).toContain('httponly');
    // a browser-session cookie too
    const u = await j.user('browser-session');
    const r = await login(j, u.username, u.password, '?useSessionCookies=true');
    expect(attrs(sessionCookie(r).line)).toContain('secure');
  });

  it('clears it on sign-out with the same Secure attribute, so the browser replaces it', async () => {
    const c = await cookieLine(j);
    expect((await req(j, 'GET', '/account', { cookie: c.value })).status).toBe(200);
    const out = await req(j, 'POST', '/identity/logout', { cookie: c.value, origin: 'https://judge.example.org' });
    expect(out.status, out.text).toBe(204);
    const cleared = sessionCookie(out);
    expect(cleared.value).toBe('');
    expect(attrs(cleared.line)).toContain('secure');
  });
});

describe('behind --public-url http://…', () => {
  let j: TestJudge;
  beforeAll(async () => (j = await judgeAt('http://judge.example.org', { trustProxy: true })));
  afterAll(() => j.stop());

  it('keeps Secure off, even when a proxy says the request came over https', async () => {
    expect(attrs((await cookieLine(j)).line)).not.toContain('secure');
    expect(attrs((await cookieLine(j, { 'x-forwarded-proto': 'https' })).line)).not.toContain('secure');
  });
});

describe('without a public URL', () => {
  let j: TestJudge;
  beforeAll(async () => (j = await judgeAt('', { trustProxy: true })));
  afterAll(() => j.stop());

  it('follows the connection: plain http is not Secure, a trusted proxy saying https is', async () => {
    expect(attrs((await cookieLine(j)).line)).not.toContain('secure');
    expect(attrs((await cookieLine(j, { 'x-forwarded-proto': 'https' })).line)).toContain('secure');
  });
});
