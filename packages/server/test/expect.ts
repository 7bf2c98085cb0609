import { expect } from 'vitest';
import { ApiProblem } from '@judge/sdk';
import { raw } from './harness.js';

/** Awaits a call that must fail, checks it failed with the documented status and code, and returns the problem. */
export async function refusedWith(p: Promise<unknown>, status: number, code: string): Promise<ApiProblem> {
  const e = await p.then(
    (v) => {
      throw new Error(`expected ${status} ${code}, got success: ${JSON.stringify(v)}`);
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ApiProblem);
  const pb = e as ApiProblem;
  expect({ status: pb.status, code: pb.code }).toEqual({ status, code });
  return pb;
}

/**
 * A raw JSON request with an optional bearer token (a string body is sent as is, for malformed
 * JSON); any failure must be a complete problem+json document.
 */
export async function sendJson(baseUrl: string, method: string, path: string, token: string | undefined, body?: unknown) {
  const headers: Record<string, string> = { accept: 'application/json' };
  let payload: string | undefined;
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = typeof body === 'string' ? body : JSON.stringify(body);
  }
  const res = await raw(`${baseUrl}/api/v1${path}`, { method, headers, ...(payload !== undefined ? { body: payload } : {}), ...(token ? { token } : {}) });
  if (res.status >= 400) {
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: res.status, code: expect.any(String), detail: expect.any(String), title: expect.any(String), type: expect.any(String) });
  }
  return res;
}
