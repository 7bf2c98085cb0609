import type { Actor } from '../../auth/permissions.js';
import { clientAddress, type Ctx } from '../../http/context.js';
import type { IdentityService } from '../identity/index.js';
import { ClicsError } from './errors.js';

/**
 * Who calls the CLICS API (Contest_API.md, "Authentication"): HTTP Basic with a judge login and
 * password, checked as a sign-in is (identity module: budgets of failures, lockout, blocks), without
 * a session; else the session or bearer token the server already resolved; else nobody (public).
 * The header itself is never logged or kept.
 */
export async function clicsActor(ctx: Ctx, identity: IdentityService): Promise<Actor | undefined> {
  const header = ctx.get('authorization');
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header);
  if (!m) {
    if (ctx.state.badCredentials && !ctx.state.actor) throw unauthorised('The credentials sign nobody in');
    return ctx.state.actor;
  }
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw unauthorised('Malformed Basic credentials');
  try {
    return await identity.passwordActor(decoded.slice(0, colon), decoded.slice(colon + 1), { ipAddress: clientAddress(ctx), userAgent: ctx.get('user-agent') || undefined });
  } catch (e) {
    const status = (e as { status?: number }).status;
    // too many failures: the sign-in budget's 429, with its Retry-After
    if (status === 429) throw new ClicsError(429, (e as Error).message, (e as { headers?: Record<string, string> }).headers ?? {});
    if (status !== undefined && status < 500) throw unauthorised('Wrong login or password');
    throw e;
  }
}

const unauthorised = (message: string) => new ClicsError(401, message, { 'WWW-Authenticate': 'Basic realm="judge"' });
