import { statusTitle } from '@judge/contract';
import { loggedPath } from './log-path.js';
import type Koa from 'koa';
import type { Logger } from 'pino';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { randomUUID } from 'node:crypto';
import { ZodError } from 'zod';
import type { Sessions } from '../auth/sessions.js';
import type { LimitStore } from './limits.js';
import type { Clock } from '../util.js';
import { ApiError } from '@judge/contract';
import { SESSION_COOKIE } from '../auth/origin.js';
import { isStorageFull, StorageFullAlarm } from './storage-full.js';
import { clientAddress, runnerProtocol, type Ctx, type RequestState } from './context.js';

type Mw = Koa.Middleware<RequestState>;

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

function problemBody(ctx: Ctx, status: number, code: string, detail: string, errors?: Record<string, string[]>) {
  return {
    type: 'about:blank',
    title: statusTitle(status),
    status,
    detail,
    code,
    ...(errors ? { errors } : {}),
    ...(status >= 500 ? { traceId: ctx.state.requestId } : {}),
  };
}

export function zodErrors(e: ZodError, prefix = ''): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of e.issues) {
    const key = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || '(body)';
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

/** Writes any failure as problem+json (decisions §3); a 5xx never shows internals, only the request id. */
function respondWithProblem(ctx: Ctx, log: Logger, full: StorageFullAlarm, err: unknown): void {
  let status = 500;
  let code = 'internal';
  let detail = 'The server failed; the request id identifies it in the log';
  let errors: Record<string, string[]> | undefined;
  if (err instanceof ApiError) {
    ({ status, code } = err);
    detail = err.message;
    errors = err.errors;
    if (err.headers) ctx.set(err.headers);
  } else if (isStorageFull(err)) {
    status = 507;
    code = 'storage.full';
    detail = 'The server has no storage space left; nothing was stored';
    full.refused(err);
  } else if (err instanceof ZodError) {
    status = 422;
    code = 'validation_failed';
    errors = zodErrors(err);
    detail = 'The request has invalid members';
  } else {
    const e = err as { status?: number; statusCode?: number; httpCode?: number; expose?: boolean; message?: string; type?: string; headers?: Record<string, string> };
    // koa-body and co-body carry `status`; formidable carries `httpCode`
    const s = e.status ?? e.statusCode ?? e.httpCode;
    if (s === 400) {
      status = 400;
      code = 'request.malformed';
      detail = e.type === 'entity.parse.failed' ? 'The body is not valid JSON' : 'The request is malformed';
    } else if (s === 413) {
      status = 413;
      code = 'payload_too_large';
      detail = 'The body is larger than allowed';
    } else if (s === 415) {
      status = 415;
      code = 'unsupported_media_type';
      detail = 'The body has an unsupported media type';
    } else if (s === 405) {
      status = 405;
      code = 'method_not_allowed';
      detail = `${ctx.method} is not allowed here`;
      if (e.headers?.Allow) ctx.set('Allow', e.headers.Allow);
    } else if (s && s >= 400 && s < 500) {
      status = s;
      code = status === 404 ? 'not_found' : 'request.malformed';
      detail = e.expose && e.message ? e.message : statusTitle(s);
    } else {
      log.error({ reqId: ctx.state.requestId, err }, 'request failed');
    }
  }
  ctx.status = status;
  ctx.type = 'application/problem+json';
  ctx.body = JSON.stringify(problemBody(ctx, status, code, detail, errors));
}

/**
 * What every request passes through first, in one layer: its request id, the security headers,
 * problem+json for any failure, and one log line. The line never holds headers, bodies or query
 * strings, which can carry secrets.
 */
export function edge(log: Logger, https: boolean): Mw {
  const headers: Record<string, string> = {
    'X-Content-Type-Options': 'nosniff',
    // frame-ancestors does what X-Frame-Options did, for every browser that matters
    'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'no-store',
    ...(https ? { 'Strict-Transport-Security': 'max-age=31536000' } : {}),
  };
  const fixed = Object.entries(headers).flat();
  const full = new StorageFullAlarm(log);
  return async (ctx, next) => {
    const start = process.hrtime.bigint();
    const incoming = ctx.get('x-request-id');
    ctx.state.requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    // straight onto the response: Koa's set() walks the object and checks each value's type on every request
    const res = ctx.res;
    for (let i = 0; i < fixed.length; i += 2) res.setHeader(fixed[i]!, fixed[i + 1]!);
    res.setHeader('X-Request-Id', ctx.state.requestId);
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw ApiError.of('not_found', `No such endpoint: ${ctx.method} ${ctx.path}`);
    } catch (err) {
      respondWithProblem(ctx, log, full, err);
    } finally {
      if (log.isLevelEnabled('info')) {
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        log.info(
          { reqId: ctx.state.requestId, method: ctx.method, path: loggedPath(ctx.path), status: ctx.status, ms: Math.round(ms * 10) / 10, userId: ctx.state.actor?.userId, ip: clientAddress(ctx) },
          'request',
        );
      }
    }
  };
}

/** Reads a bearer token or the session cookie; a missing or bad one leaves the request anonymous. */
export function authenticate(sessions: Sessions, clock: Clock): Mw {
  return async (ctx, next) => {
    // runners carry their own tokens, checked by the runner routes; an operation that ignores the
    // session may carry another system's secret in Authorization, which is no token of ours to look up
    if (runnerProtocol(ctx.state.operation) || ctx.state.operation?.ignoresSession) return next();
    const header = ctx.get('authorization');
    if (header) {
      const m = /^Bearer\s+([A-Za-z0-9_-]{16,128})$/i.exec(header);
      const actor = m ? await sessions.authenticate(m[1]!, 'bearer', clock.now()) : null;
      if (actor) ctx.state.actor = actor;
      else ctx.state.badCredentials = true;
    } else {
      const cookie = ctx.cookies.get(SESSION_COOKIE);
      if (cookie) {
        const actor = /^[A-Za-z0-9_-]{16,128}$/.test(cookie) ? await sessions.authenticate(cookie, 'cookie', clock.now()) : null;
        if (actor) ctx.state.actor = actor;
        else ctx.state.badCredentials = true;
      }
    }
    await next();
  };
}

/** Requests per minute, per signed-in user or, for anonymous calls, per address. */
export function rateLimit(perMinute: number, limits: LimitStore): Mw {
  if (perMinute <= 0) return (_ctx, next) => next();
  const limiter = limits.limiter({ points: perMinute, duration: 60, keyPrefix: 'requests' });
  return async (ctx, next) => {
    // approved runners are machines an administrator trusts: their pace is set by the work they
    // claim. Registration and the handshake are anonymous, so they count against the address.
    if (ctx.state.operation?.auth === 'runner') return next();
    const key = ctx.state.actor ? `u:${ctx.state.actor.userId}` : `a:${clientAddress(ctx)}`;
    try {
      await limiter.consume(key);
    } catch (res) {
      throw rateLimited(res);
    }
    await next();
  };
}

export function rateLimited(res: unknown): ApiError {
  // the store failed (its insurance too): not the client's doing, so not a 429
  if (res instanceof Error) throw res;
  const seconds = res instanceof RateLimiterRes ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : 60;
  return ApiError.of('rate_limited', `Too many requests; try again in ${seconds} s`, undefined, { 'Retry-After': String(seconds) });
}

/** A limit per client address for one group of routes, e.g. sign-in attempts. */
export function perAddress(limiter: RateLimiterAbstract): Mw {
  return async (ctx, next) => {
    try {
      await limiter.consume(clientAddress(ctx as Ctx));
    } catch (res) {
      throw rateLimited(res);
    }
    await next();
  };
}
