import type { Operation } from '@judge/contract';
import type Koa from 'koa';
import type { Actor } from '../auth/permissions.js';
import type { RunnerActor } from '../auth/runner-tokens.js';

export interface RequestState {
  requestId: string;
  actor?: Actor;
  /** The runner of a runner-protocol call, once its token was checked. */
  runner?: RunnerActor;
  /** The operation the routes will run for this request (Api.classify), if any; what gates ask. */
  operation?: Operation;
  /** Set when the request carried a bearer token or cookie that signs nobody in. */
  badCredentials?: boolean;
}

export type Ctx = Koa.ParameterizedContext<RequestState>;

/** The client address, honouring X-Forwarded-For only when configured to trust a proxy. */
export function clientAddress(ctx: Ctx): string {
  return ctx.ip.startsWith('::ffff:') ? ctx.ip.slice(7) : ctx.ip;
}

/** The origin browsers must present: the configured public URL's, else the request's own. */
export function expectedOrigin(ctx: Ctx, publicUrl: string): string {
  return publicUrl ? new URL(publicUrl).origin : `${ctx.protocol}://${ctx.host}`;
}

/** The runner protocol: machines with their own tokens, never users' sessions or their rate limit. */
export function runnerProtocol(op: Operation | undefined): boolean {
  return !!op && op.path.startsWith('/runner/');
}
