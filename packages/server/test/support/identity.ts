import { expect } from 'vitest';
import { raw, TestJudge } from '../harness.js';

/**
 * What the identity tests share: requests under /api/v1 that must never answer 5xx, problem checks,
 * and the session cookie and its attributes.
 */

export type RawResponse = Awaited<ReturnType<typeof raw>>;

export const SECRET = /^[A-Za-z0-9_-]{43}$/; // 256 bits in base64url

/** Sends a request under /api/v1 and insists the server never answered 5xx. */
export async function req(
  j: TestJudge,
  method: string,
  path: string,
  opts: { body?: unknown; token?: string; cookie?: string; origin?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.body !== undefined) headers['content-type'] ??= 'application/json';
  if (opts.cookie) headers.cookie = `judge_session=${opts.cookie}`;
  if (opts.origin) headers.origin = opts.origin;
  const r = await raw(`${j.url}/api/v1${path}`, {
    method,
    headers,
    ...(opts.body !== undefined ? { body: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) } : {}),
    ...(opts.token ? { token: opts.token } : {}),
  });
  expect(r.status, `${method} ${path} answered ${r.status}: ${r.text}`).toBeLessThan(500);
  return r;
}

export function expectProblem(r: RawResponse, status: number, code: string, detail?: string): void {
  expect(r.status, r.text).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.body).toMatchObject({ type: expect.any(String), title: expect.any(String), status, detail: expect.any(String), code });
  if (detail !== undefined) expect(r.body.detail).toBe(detail);
}

export const login = (j: TestJudge, email: string, password: string, query = '') => req(j, 'POST', `/identity/login${query}`, { body: { email, password } });

/** The `judge_session` Set-Cookie line of a response. */
export function sessionCookie(r: RawResponse): { value: string; line: string } {
  const line = r.headers.getSetCookie().find((c) => c.startsWith('judge_session='));
  expect(line, 'a judge_session cookie is set').toBeDefined();
  return { value: line!.slice('judge_session='.length).split(';')[0]!, line: line! };
}

export const attrs = (line: string) =>
  line
    .split(';')
    .slice(1)
    .map((a) => a.trim().toLowerCase());
