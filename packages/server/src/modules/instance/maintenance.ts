import type { MaintenanceLevel, MaintenanceState } from '@judge/contract';
import { ApiError, ops, type Operation } from '@judge/contract';
import { eq } from 'drizzle-orm';
import type Koa from 'koa';
import { z } from 'zod';
import type { Actor } from '../../auth/permissions.js';
import { instanceSettings } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import { event } from '../../events/bus.js';
import type { RequestState } from '../../http/context.js';
import type { Deps } from '../../services.js';
import { iso } from '../../util.js';

/**
 * The maintenance level lives in its own row of instance_settings (row 1 holds the switches): it
 * survives a restart without a table of its own, and the settings view never shows it.
 */
const ROW = 2;

const Stored = z.object({
  level: z.enum(['open', 'draining', 'closed']).catch('open'),
  since: z.string().optional(),
  reason: z.string().optional(),
});

/** Seconds clients are told to wait before trying again (the peer's figure). */
export const RETRY_AFTER_SECONDS = 30;

/**
 * The installation's maintenance level. Read on every request, so it is kept in memory and
 * written through: this process is the only writer of its data directory (the directory is locked).
 */
export class Maintenance {
  /** Open until `load` read the stored level, which the server does before it listens. */
  private current: MaintenanceState = { level: 'open' };

  constructor(private readonly d: Deps) {}

  /** Reads the stored level; called once at start. */
  async load(): Promise<void> {
    const row = (await this.d.tx.read((q) => q.select().from(instanceSettings).where(eq(instanceSettings.id, ROW)).limit(1)))[0];
    const s = Stored.parse(row?.settings ?? {});
    this.current = s.level === 'open' ? { level: 'open' } : { level: s.level, ...(s.since ? { since: s.since } : {}), ...(s.reason ? { reason: s.reason } : {}) };
  }

  get level(): MaintenanceLevel {
    return this.current.level;
  }

  async state(actor: Actor): Promise<MaintenanceState> {
    await this.d.permissions.require(actor, 'system:administrator');
    return this.current;
  }

  /**
   * Moves to `level`; the same level again changes nothing and tells nobody (clients hear of each
   * change once). A new reason at the same level is kept without an announcement.
   */
  async set(actor: Actor, level: MaintenanceLevel, reason: string | undefined): Promise<MaintenanceState> {
    await this.d.permissions.require(actor, 'system:administrator');
    const before = this.current;
    if (before.level === level && (level === 'open' || (reason ?? before.reason) === before.reason)) return before;
    const now = iso(this.d.clock.now());
    const next: MaintenanceState =
      level === 'open' ? { level } : { level, since: before.level === level && before.since ? before.since : now, ...((reason ?? before.reason) ? { reason: reason ?? before.reason } : {}) };
    // one writer of the level: the row is replaced whole, so a retried or concurrent write leaves one of them, never a mix
    await this.d.tx.write(async (q, out) => {
      await q
        .insert(instanceSettings)
        .values({ id: ROW, settings: next, updatedAt: now })
        .onConflictDoUpdate({ target: instanceSettings.id, set: { settings: next, updatedAt: now } });
      if (before.level !== level) out.emit(event('maintenanceChanged', { maintenance: next }, { kind: 'signedIn' }));
      out.then(() => (this.current = next));
    });
    if (before.level !== level) this.d.log.warn({ level, by: actor.userId }, 'maintenance level changed');
    return next;
  }
}

export function maintenanceRefusal(): ApiError {
  return ApiError.of('server.maintenance', 'The installation is closed for maintenance; try again later', undefined, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
}

/** While closed only administrators may sign in (or renew a token): they turn maintenance off again. */
export async function admitSignIn(m: Maintenance, permissions: Deps['permissions'], userId: string, q?: Q): Promise<void> {
  if (m.level === 'closed' && !(await permissions.isAdministrator(userId, q))) throw maintenanceRefusal();
}

const API = '/api/v1/';
/** What sign-in takes; the identity service refuses everybody but administrators while closed. */
const SIGN_IN: ReadonlySet<Operation> = new Set([ops.login, ops.refresh]);
/** Operations an administrator's client needs while closed: the switch itself, sign-out, who am I. */
const ADMIN_WHILE_CLOSED = /^\/(admin\/|identity\/|account$|permissions\/mine$|instance$)/;
/**
 * What adds judging work, refused while draining so the queue can empty: a submission, a trial, a
 * rejudge. Claims, reports, leases and everything else go on.
 */
const NEW_WORK: ReadonlySet<Operation> = new Set([ops.submit, ops.createTrial, ops.rejudgeSubmission, ops.rejudgeAssignment]);

function draining(): ApiError {
  return ApiError.of('server.draining', 'The installation is draining for maintenance: nothing new is judged until it reopens', undefined, {
    'Retry-After': String(RETRY_AFTER_SECONDS),
  });
}

/**
 * The maintenance gate, after authentication (it needs to know administrators) and before the API.
 * Only the API is gated: the web app's files stay served, so its pages can say what is going on.
 */
export function maintenanceGate(m: Maintenance, permissions: Deps['permissions']): Koa.Middleware<RequestState> {
  return async (ctx, next) => {
    if (m.level === 'open') return next();
    // the operation the routes will run (Api.classify), never the path as written: a trailing slash,
    // another letter case or a doubled slash reaches the same operation and meets the same gate
    const op = ctx.state.operation;
    if (m.level === 'draining') {
      if (op && NEW_WORK.has(op)) throw draining();
      return next();
    }
    if (!op) {
      // what no operation answers: the web app's files stay served, the rest of the API waits
      if (ctx.path.toLowerCase().startsWith(API)) throw maintenanceRefusal();
      return next();
    }
    if (op === ops.health || SIGN_IN.has(op)) return next();
    const actor = ctx.state.actor;
    if (actor && ADMIN_WHILE_CLOSED.test(op.path) && (await permissions.isAdministrator(actor.userId))) return next();
    throw maintenanceRefusal();
  };
}
