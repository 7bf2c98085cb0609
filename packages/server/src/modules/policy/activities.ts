import { eq, sql } from 'drizzle-orm';
import type { Actor, UserPermissions } from '../../auth/permissions.js';
import { prepared, type Q } from '../../db/storage.js';
import { activities } from '../../db/schema.js';
import type { Audience } from '../../events/bus.js';
import { ApiError, notFound } from '@judge/contract';
import type { Deps } from '../../services.js';

export type ActivityRow = typeof activities.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/* Asked on nearly every request about an activity: built once per `q` (storage.ts, prepared()). */
const activityById = prepared((q) => q.select().from(activities).where(eq(activities.id, sql.placeholder('id'))).limit(1).prepare());
const activityBySlug = prepared((q) => q.select().from(activities).where(eq(activities.slugKey, sql.placeholder('slugKey'))).limit(1).prepare());

/** An activity by id, or by slug regardless of case (interface: `{idOrSlug}`), read with `q`. */
export async function findActivity(q: Q, idOrSlug: string): Promise<ActivityRow | undefined> {
  if (UUID.test(idOrSlug)) {
    const found = (await activityById(q, { id: idOrSlug }))[0];
    if (found) return found;
  }
  return (await activityBySlug(q, { slugKey: idOrSlug.toLowerCase() }))[0];
}


/**
 * Reads with `q` when the caller is inside a transaction, else in a read of its own. A caller inside
 * `d.tx.write` must hand its `q` on: a read of its own would wait for that very write to end.
 */
function reading<T>(d: Deps, q: Q | undefined, fn: (q: Q) => Promise<T>): Promise<T> {
  return d.tx.read(fn, q);
}

/** An activity by id or slug, read on its own (outside any transaction). */
export function readActivity(d: Deps, idOrSlug: string): Promise<ActivityRow | undefined> {
  return d.tx.read((q) => findActivity(q, idOrSlug));
}

/** Whether the user holds a grant in the activity. `q`: the caller's transaction, when it asks from inside one. */
export async function isMember(d: Deps, userId: string, activityId: string, q?: Q): Promise<boolean> {
  return (await d.permissions.memberships(userId, q)).includes(activityId);
}

/** May manage: activity:update there (override rules included). */
export function canManage(d: Deps, userId: string, activityId: string, q?: Q): Promise<boolean> {
  return d.permissions.has(userId, 'activity:update', activityId, q);
}

/**
 * Whether a user may see an activity at all (decisions §7, §9): its managers always; others only
 * while it is published, and then members, or anyone when it is not closed to joining. Answered
 * from permissions already loaded (`d.permissions.of`), for a caller asking about many activities.
 */
export function seesActivity(p: Pick<UserPermissions, 'has' | 'memberships'>, a: ActivityRow): boolean {
  if (p.has('activity:update', a.id)) return true;
  if (!a.publishedAt) return false;
  if (p.memberships().includes(a.id)) return true;
  return a.joinPolicy !== 'closed';
}

/** seesActivity for one user. `q`: the caller's transaction, when it asks from inside one. */
export async function canSeeActivity(d: Deps, userId: string, a: ActivityRow, q?: Q): Promise<boolean> {
  return seesActivity(await d.permissions.of(userId, q), a);
}

/**
 * Who may see an activity as it is now, for asking about many users at once: the same rule as
 * canSeeActivity (what REST's visibleActivity applies), with the activity read once. The socket hub
 * asks it for every event about an activity when it delivers the event (events/hub.ts `viewers`),
 * of the permissions it holds for each connected user, so a socket is told exactly what REST would show.
 */
export async function activityViewers(d: Deps, activityId: string): Promise<(p: UserPermissions) => boolean> {
  const a = (await d.tx.read((q) => activityById(q, { id: activityId })))[0];
  return a ? (p) => seesActivity(p, a) : () => false;
}

/**
 * The activity if the caller may see it; otherwise 404, exactly like one that does not exist.
 * `q`: the caller's transaction, when it asks from inside one.
 */
export async function visibleActivity(d: Deps, actor: Actor, idOrSlug: string, q?: Q): Promise<ActivityRow> {
  const a = await reading(d, q, (r) => findActivity(r, idOrSlug));
  if (!a || !(await canSeeActivity(d, actor.userId, a, q))) throw notFound('activity');
  return a;
}

/**
 * The activity if the caller holds `activity:update` in it; otherwise 404 (or 403 to a member).
 * `q`: the caller's transaction, when it asks from inside one.
 */
export async function managedActivity(d: Deps, actor: Actor, idOrSlug: string, q?: Q): Promise<ActivityRow> {
  const a = await visibleActivity(d, actor, idOrSlug, q);
  await d.permissions.require(actor, 'activity:update', a.id, q);
  return a;
}

export function requireNotArchived(a: ActivityRow): void {
  if (a.archivedAt) throw ApiError.of('activity.archived', 'The activity is archived; restore it first');
}

/**
 * Who hears of an activity as participants see it: everyone signed in when anyone may find it
 * (published, listed, not closed), else its members and managers.
 */
export function participantAudience(a: ActivityRow): Audience {
  if (a.publishedAt && !a.unlisted && a.joinPolicy !== 'closed') return { kind: 'signedIn' };
  return { kind: 'permission', key: a.publishedAt ? 'activity:read' : 'activity:update', activityId: a.id };
}

export function managerAudience(activityId: string): Audience {
  return { kind: 'permission', key: 'activity:update', activityId };
}
