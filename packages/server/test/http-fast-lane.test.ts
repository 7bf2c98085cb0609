import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, type Operation } from '@judge/contract';
import { Api } from '../src/http/api.js';
import type { RequestState } from '../src/http/context.js';
import { edge } from '../src/http/middleware.js';
import { iso } from '../src/util.js';

/**
 * The exact-path fast lane of Api.routes answers as the router would: the same operation, the
 * same body and headers; a parameterless path an earlier parameter route also matches stays with
 * the router (which runs the earlier route), and so do HEAD, other letter cases and a trailing slash.
 */

const op = (id: string, method: Operation['method'], path: string, extra: Partial<Operation> = {}): Operation =>
  ({ id, method, path, tag: 't', summary: id, auth: 'public', status: 200, errors: [], response: z.unknown(), ...extra }) as Operation;

describe('the fast lane for parameterless operations', () => {
  let server: Server;
  let url = '';
  let api: Api;
  const seen: string[] = [];

  beforeAll(async () => {
    api = new Api({
      jsonBodyBytes: 1024,
      publicUrl: 'http://127.0.0.1',
      onSignedIn: () => {},
      authenticateRunner: () => {
        throw new Error('no runners here');
      },
    });
    // a parameter route registered first shadows the parameterless one after it, for the router
    api.bind(op('thing', 'GET', '/things/{id}', { params: z.object({ id: z.string() }) }), ({ params }) => {
      seen.push('thing');
      return { id: (params as { id: string }).id };
    });
    api.bind(op('mine', 'GET', '/things/mine'), () => {
      seen.push('mine');
      return { mine: true };
    });
    api.bind(op('list', 'GET', '/things'), () => {
      seen.push('list');
      return { list: [1, 2], gone: null };
    });
    api.bind(op('refuse', 'POST', '/refusals'), () => {
      seen.push('refuse');
      throw ApiError.of('forbidden', 'never');
    });
    const koa = new Koa<RequestState>();
    koa.silent = true;
    koa.use(edge(pino({ level: 'silent' }), false));
    koa.use(api.routes());
    koa.use(api.allowedMethods());
    server = createServer(koa.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('serves only the parameterless operations no earlier route shadows', () => {
    expect(api.fastLane().sort()).toEqual(['GET /api/v1/things', 'POST /api/v1/refusals']);
  });

  it('answers through the lane as through the router', async () => {
    const lane = await fetch(`${url}/api/v1/things`);
    const routed = await fetch(`${url}/API/V1/things/`);
    expect(lane.status).toBe(200);
    expect(routed.status).toBe(200);
    expect(lane.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(routed.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(lane.headers.get('x-content-type-options')).toBe('nosniff');
    expect(lane.headers.get('cache-control')).toBe('no-store');
    expect(lane.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await lane.text()).toBe('{"list":[1,2]}');
    expect(await routed.text()).toBe('{"list":[1,2]}');
    const head = await fetch(`${url}/api/v1/things`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('leaves a shadowed path to the router, which runs the earlier parameter route', async () => {
    seen.length = 0;
    const r = await fetch(`${url}/api/v1/things/mine`);
    expect(await r.json()).toEqual({ id: 'mine' });
    expect(seen).toEqual(['thing']);
  });

  it('carries a handler failure to the edge as problem+json, and a wrong method still gets 405 with Allow', async () => {
    const refused = await fetch(`${url}/api/v1/refusals`, { method: 'POST' });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await refused.json()) as { code: string }).code).toBe('forbidden');
    const wrong = await fetch(`${url}/api/v1/things`, { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toContain('GET');
  });
});

describe('iso', () => {
  it('formats every instant as toISOString does, the same millisecond twice or not', () => {
    const instants = [0, 1, 1, 1_700_000_000_123, 1_700_000_000_123, 1_700_000_000_124, -1, 8.64e15];
    for (const ms of instants) expect(iso(new Date(ms))).toBe(new Date(ms).toISOString());
    expect(() => iso(new Date(NaN))).toThrow(RangeError);
  });
});
