import Router from '@koa/router';
import { jsonTooDeep, MAX_JSON_DEPTH, type Operation, type OperationOutput } from '@judge/contract';
import type Koa from 'koa';
import { koaBody } from 'koa-body';
import type { z } from 'zod';
import type { Actor } from '../auth/permissions.js';
import type { RunnerActor } from '../auth/runner-tokens.js';
import { ApiError, ERROR_CODES, unauthenticated, type ErrorCode } from '@judge/contract';
import { unsafeRequestAllowed } from '../auth/origin.js';
import { wireJson } from '../util.js';
import { expectedOrigin, type Ctx, type RequestState } from './context.js';
import { zodErrors } from './middleware.js';
import { formParts } from './uploads.js';

type Parsed<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface HandlerInput<O extends Operation> {
  params: Parsed<O['params']>;
  query: Parsed<O['query']>;
  body: O['multipart'] extends true ? undefined : Parsed<O['body']>;
  /** A multipart operation's form, validated by its contract schema. */
  form: Parsed<O['form']>;
  actor: O['auth'] extends 'user' ? Actor : Actor | undefined;
  runner: O['auth'] extends 'runner' ? RunnerActor : undefined;
  ctx: Ctx;
}

/** A handler returns the response body; binary handlers set ctx.body themselves and return nothing. */
export type Handler<O extends Operation> = (
  input: HandlerInput<O>,
) => Promise<OperationOutput<O> | void> | OperationOutput<O> | void;

export interface ApiOptions {
  jsonBodyBytes: number;
  publicUrl: string;
  /** Called after a signed-in request succeeds, to record it on the session. */
  onSignedIn(actor: Actor, path: string): void | Promise<void>;
  /** Checks a runner call's Authorization header; throws 401 or 403. */
  authenticateRunner(header: string | undefined, ctx: Ctx): Promise<RunnerActor>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Binds contract operations to handlers, doing the validation, auth and shaping every route shares. */
/**
 * The first path segment under /api/v1 (`account` of /api/v1/account/links), '' for anything else;
 * lowercased, as the routers match paths regardless of case.
 */
function areaOf(path: string): string {
  if (path.slice(0, PREFIX.length).toLowerCase() !== PREFIX) return '';
  const end = path.indexOf('/', PREFIX.length);
  return path.slice(PREFIX.length, end < 0 ? undefined : end).toLowerCase();
}

const PREFIX = '/api/v1/';

/**
 * A form's refusal: a rule with its own catalogued code answers that code with its detail (the
 * first such rule, as forms check in order); anything else is 422 validation_failed. Both name
 * the parts at fault in `errors`.
 */
function formRefusal(e: z.ZodError): ApiError {
  const errors = zodErrors(e);
  for (const issue of e.issues) {
    const params = (issue as { params?: { code?: unknown; detail?: unknown } }).params;
    if (typeof params?.code === 'string' && params.code in ERROR_CODES) {
      return ApiError.of(params.code as ErrorCode, typeof params.detail === 'string' ? params.detail : issue.message, errors);
    }
  }
  const [only, ...more] = Object.entries(errors);
  const detail = only && !more.length && only[1].length === 1 ? `${only[0]}: ${only[1][0]}` : 'The form has invalid parts';
  return ApiError.of('validation_failed', detail, errors);
}

/** Runs layers in order, each given the next one (as koa-compose does, calling next twice refused). */
function chain(stack: Koa.Middleware<RequestState>[]): Koa.Middleware<RequestState> {
  return (ctx, next) => {
    let last = -1;
    const dispatch = (i: number): Promise<void> => {
      if (i <= last) return Promise.reject(new Error('next() called multiple times'));
      last = i;
      const fn = i < stack.length ? stack[i]! : next;
      try {
        return Promise.resolve(fn(ctx, () => dispatch(i + 1)));
      } catch (e) {
        return Promise.reject(e);
      }
    };
    return dispatch(0);
  };
}

export class Api {
  /**
   * One router per first path segment: a router tries its routes one by one, so a request is
   * matched against its own area's few routes rather than against the whole API.
   */
  private readonly routers = new Map<string, { router: Router<RequestState>; routes?: Koa.Middleware; allowed?: Koa.Middleware }>();
  private readonly bound = new Set<string>();
  /** Parameterless operations by `METHOD /api/v1/path`, with their layers, for the exact-path fast lane (see routes). */
  private readonly exact = new Map<string, Koa.Middleware<RequestState>[]>();
  /** Bound operations by id, which is each route's name: what a matched route is. */
  private readonly byId = new Map<string, Operation>();
  /** The fast lane (see routes), built once all operations are bound. */
  private lanes?: Map<string, { op: Operation; run: Koa.Middleware<RequestState> }>;
  private readonly json: Koa.Middleware;

  constructor(private readonly opts: ApiOptions) {
    this.json = koaBody({
      multipart: false,
      urlencoded: false,
      text: false,
      json: true,
      jsonStrict: true,
      jsonLimit: opts.jsonBodyBytes,
      parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'] as never,
      onError: (err) => {
        throw err;
      },
    }) as unknown as Koa.Middleware;
  }

  get boundIds(): ReadonlySet<string> {
    return this.bound;
  }

  bind<O extends Operation>(op: O, handler: Handler<O>, extra: Koa.Middleware<RequestState>[] = []): void {
    if (this.bound.has(op.id)) throw new Error(`operation ${op.id} bound twice`);
    this.bound.add(op.id);
    const path = op.path.replace(/\{(\w+)\}/g, ':$1');
    const stack: Koa.Middleware<RequestState>[] = [this.gate(op), ...extra];
    if (op.body && !op.multipart) stack.push(this.jsonBody());
    stack.push(async (ctx) => {
      const input = this.parse(op, ctx as Ctx);
      const result = await handler(input as HandlerInput<O>);
      if (ctx.state.actor) await this.opts.onSignedIn(ctx.state.actor, ctx.path);
      if (op.status === 204) {
        ctx.status = 204;
        ctx.body = null;
      } else if (op.response === 'binary' || op.response === 'redirect' || ctx.body !== undefined) {
        // the handler wrote its own body (a download, or a bodyless cookie login)
      } else {
        ctx.status = op.status;
        // what `ctx.type = 'application/json'` sets, without a MIME lookup per answer
        ctx.set('Content-Type', JSON_TYPE);
        ctx.body = wireJson(result);
      }
    });
    if (!op.path.includes('{')) this.exact.set(`${op.method} /api/v1${op.path}`, stack);
    this.byId.set(op.id, op);
    const area = areaOf(`/api/v1${op.path}`);
    let entry = this.routers.get(area);
    if (!entry) this.routers.set(area, (entry = { router: new Router<RequestState>({ prefix: '/api/v1' }) }));
    entry.router.register(path, [op.method], stack as never, { name: op.id });
  }

  /**
   * The operation a request reaches: the one the routers (or the fast lane) will run for this method
   * and path, asked of them rather than worked out again, so that every gate before the routes
   * (authentication, maintenance, rate limits) sees exactly what the routers will dispatch, whatever
   * letter case, trailing slash or encoding the path comes in. Undefined where no route matches.
   */
  operationAt(method: string, path: string): Operation | undefined {
    const lane = this.fastLanes().get(`${method} ${path}`);
    if (lane) return lane.op;
    const matched = this.routers.get(areaOf(path))?.router.match(path, method);
    // the routers run every matching layer in order and the first answers: that one is the operation
    const first = matched?.pathAndMethod.find((layer) => layer.methods.length > 0);
    return first?.name ? this.byId.get(first.name) : undefined;
  }

  /** Puts the operation a request reaches on its state (see operationAt), before any gate runs. */
  classify(): Koa.Middleware<RequestState> {
    return (ctx, next) => {
      const op = this.operationAt(ctx.method, ctx.path);
      if (op) ctx.state.operation = op;
      return next();
    };
  }

  /** Authentication and the Origin check come before the body is read, so refusals cost nothing. */
  private gate(op: Operation): Koa.Middleware<RequestState> {
    return async (ctx, next) => {
      if (op.auth === 'runner') {
        ctx.state.runner = await this.opts.authenticateRunner(ctx.get('authorization') || undefined, ctx as Ctx);
        return next();
      }
      // an LMS's form post reaches us cross-origin, with whatever same-site cookie the browser holds
      if (op.ignoresSession) ctx.state.actor = undefined;
      const actor = ctx.state.actor;
      if (op.auth === 'user' && !actor) {
        throw unauthenticated(ctx.state.badCredentials ? 'The token or session is not valid (expired, ended or unknown)' : 'Sign in first');
      }
      if (actor?.via === 'cookie' && UNSAFE.has(ctx.method)) {
        const expected = expectedOrigin(ctx as Ctx, this.opts.publicUrl);
        if (!unsafeRequestAllowed(ctx.get('origin') || undefined, ctx.get('referer') || undefined, ctx.get('sec-fetch-site') || undefined, expected)) {
          throw ApiError.of('csrf.origin', `A cookie-authenticated ${ctx.method} must come from ${expected}`);
        }
      }
      await next();
    };
  }

  private jsonBody(): Koa.Middleware<RequestState> {
    return async (ctx, next) => {
      const hasBody = ctx.request.length > 0 || ctx.get('transfer-encoding') !== '';
      if (hasBody && !ctx.is('application/json', 'application/*+json')) {
        throw ApiError.of('unsupported_media_type', 'Send the body as application/json');
      }
      let read = false;
      try {
        await this.json(ctx, () => {
          read = true;
          return next();
        });
      } catch (err) {
        // Reading the body fails with an HTTP status (400, 413, 415) except where zlib fails on a body
        // that does not decode as its Content-Encoding (gzip, br) says: that is the client's fault too.
        const e = err as { status?: unknown; statusCode?: unknown };
        if (!read && typeof e.status !== 'number' && typeof e.statusCode !== 'number') {
          throw ApiError.of('request.malformed', 'The body does not decode as its Content-Encoding says');
        }
        throw err;
      }
    };
  }

  private parse<O extends Operation>(op: O, ctx: Ctx) {
    let params: unknown;
    if (op.params) {
      const r = op.params.safeParse(ctx.params ?? {});
      // an id that is not even well formed names nothing: 404, like any other unknown id
      if (!r.success) throw ApiError.of('not_found', 'No such resource');
      params = r.data;
    }
    let query: unknown;
    if (op.query) {
      const raw: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(ctx.query)) {
        const value = Array.isArray(v) ? v[v.length - 1] : v;
        // `state=` from a form's empty choice means no filter (decisions §2), for every filter alike
        if (value !== '') raw[k] = value;
      }
      const r = op.query.safeParse(raw);
      if (!r.success) throw ApiError.of('validation_failed', 'The query has invalid parameters', zodErrors(r.error));
      query = r.data;
    }
    let body: unknown;
    if (op.body && !op.multipart) {
      const raw = (ctx.request as unknown as { body?: unknown }).body;
      // before anything recursive (zod, JSON.stringify) walks it and overflows the stack
      if (jsonTooDeep(raw)) throw ApiError.of('json.tooDeep', `The body nests objects and arrays more than ${MAX_JSON_DEPTH} deep`);
      const r = op.body.safeParse(raw === undefined || (typeof raw === 'object' && raw !== null && Object.keys(raw).length === 0 && ctx.request.length === 0) ? {} : raw);
      if (!r.success) throw ApiError.of('validation_failed', 'The body has invalid members', zodErrors(r.error));
      body = r.data;
    }
    let form: unknown;
    if (op.multipart && op.form) {
      const r = op.form.safeParse(formParts(ctx));
      if (!r.success) throw formRefusal(r.error);
      form = r.data;
    }
    return { params, query, body, form, actor: ctx.state.actor, runner: ctx.state.runner, ctx };
  }

  /**
   * The routers, behind a fast lane: a request whose method and path are exactly those of a
   * parameterless operation (GET /api/v1/account, POST /api/v1/runner/jobs/claim) runs that
   * operation's layers straight away, without the router's matching and per-request composition.
   * Only where the router would run that operation alone: a path some other route of the same
   * method matches too (a parameter route registered earlier) stays with the router, as do HEAD,
   * other letter cases and a trailing slash.
   */
  routes(): Koa.Middleware {
    for (const e of this.routers.values()) e.routes = e.router.routes() as unknown as Koa.Middleware;
    const fast = this.fastLanes();
    return (ctx, next) => {
      const lane = fast.get(`${ctx.method} ${ctx.path}`);
      if (lane) {
        // as the router leaves it for a route without parameters
        (ctx as { params?: object }).params = {};
        return lane.run(ctx as never, next);
      }
      const routes = this.routers.get(areaOf(ctx.path))?.routes;
      return routes ? routes(ctx, next) : next();
    };
  }

  private fastLanes(): Map<string, { op: Operation; run: Koa.Middleware<RequestState> }> {
    if (this.lanes) return this.lanes;
    const lanes = new Map<string, { op: Operation; run: Koa.Middleware<RequestState> }>();
    for (const [key, stack] of this.exact) {
      const [method, path] = key.split(' ') as [string, string];
      const matched = this.routers.get(areaOf(path))?.router.match(path, method);
      const only = matched?.pathAndMethod.length === 1 ? matched.pathAndMethod[0] : undefined;
      const op = only?.name ? this.byId.get(only.name) : undefined;
      if (op) lanes.set(key, { op, run: chain(stack) });
    }
    return (this.lanes = lanes);
  }

  /** The `METHOD path` keys the fast lane serves (see routes); for tests. */
  fastLane(): string[] {
    return [...this.fastLanes().keys()];
  }

  /**
   * 405 with `Allow` for a method a known path does not take. The router is not asked to throw: its
   * thrown errors carry no `Allow`, and a method it does not know (PROPFIND, ...) would become 501,
   * which the problem middleware reports as a 500. Here such a method is a 405 too, or a 404 where
   * the path names nothing.
   */
  allowedMethods(): Koa.Middleware {
    for (const e of this.routers.values()) e.allowed = e.router.allowedMethods() as unknown as Koa.Middleware;
    const inner: Koa.Middleware = (ctx, next) => {
      const allowed = this.routers.get(areaOf(ctx.path))?.allowed;
      return allowed ? allowed(ctx, next) : next();
    };
    return async (ctx, next) => {
      await inner(ctx, next);
      if (ctx.body !== undefined || (ctx.status !== 405 && ctx.status !== 501)) return;
      const allow = ctx.response.get('Allow');
      ctx.remove('Allow');
      if (!allow) throw ApiError.of('not_found', `No such endpoint: ${ctx.method} ${ctx.path}`);
      throw ApiError.of('method_not_allowed', `${ctx.method} is not allowed here`, undefined, { Allow: allow });
    };
  }
}
