import { eq, sql } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import type { Db } from '../../db/database.js';
import { activities } from '../../db/schema.js';
import type { Audience } from '../../events/bus.js';
import { ApiError, notFound } from '@judge/contract';
import type { Deps } from '../../services.js';

export type ActivityRow = typeof activities.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type ActivityLookup = { get(p: { key: string }): ActivityRow | undefined };
const lookupStatements = new WeakMap<Db, { byId: ActivityLookup; bySlug: ActivityLookup }>();

/** Asked on every activity request, so prepared once per database rather than built and prepared each call. */
function lookups(db: Db): { byId: ActivityLookup; bySlug: ActivityLookup } {
  let st = lookupStatements.get(db);
  if (!st) {
    const key = sql.placeholder('key');
    st = {
      byId: db.select().from(activities).where(eq(activities.id, key)).prepare(),
      bySlug: db.select().from(activities).where(eq(activities.slugKey, key)).prepare(),
    };
    lookupStatements.set(db, st);
  }
  return st;
}

/** An activity by id, or by slug regardless of case (interface: `{idOrSlug}`). */
export function findActivity(db: Db, idOrSlug: string): ActivityRow | undefined {
  const { byId, bySlug } = lookups(db);
  if (UUID.test(idOrSlug)) {
    const found = byId.get({ key: idOrSlug });
    if (found) return found;
  }
  return bySlug.get({ key: idOrSlug.toLowerCase() });
}

export function isMember(d: Deps, userId: string, activityId: string): boolean {
  return d.permissions.now.memberships(userId).includes(activityId);
}

/** May manage: activity:update there (override rules included). */
export function canManage(d: Deps, userId: string, activityId: string): boolean {
  return d.permissions.now.has(userId, 'activity:update', activityId);
}

/**
 * Whether a user may see an activity at all (decisions §7, §9): its managers always; others only
 * while it is published, and then members, or anyone when it is not closed to joining.
 */
export function canSeeActivity(d: Deps, userId: string, a: ActivityRow): boolean {
  if (canManage(d, userId, a.id)) return true;
  if (!a.publishedAt) return false;
  if (isMember(d, userId, a.id)) return true;
  return a.joinPolicy !== 'closed';
}

/**
 * Who may see an activity as it is now, for asking about many users at once: the same rule as
 * canSeeActivity (what REST's visibleActivity applies), with the activity read once. The socket hub
 * asks it for every event about an activity when it delivers the event, so a socket is told exactly
 * what REST would show.
 */
export function activityViewers(d: Deps, activityId: string): (userId: string) => boolean {
  const a = findActivity(d.db, activityId);
  return a ? (userId) => canSeeActivity(d, userId, a) : () => false;
}

/** The activity if the caller may see it; otherwise 404, exactly like one that does not exist. */
export function visibleActivity(d: Deps, actor: Actor, idOrSlug: string): ActivityRow {
  const a = findActivity(d.db, idOrSlug);
  if (!a || !canSeeActivity(d, actor.userId, a)) throw notFound('activity');
  return a;
}

/** The activity if the caller holds `activity:update` in it; otherwise 404 (or 403 to a member). */
export function managedActivity(d: Deps, actor: Actor, idOrSlug: string): ActivityRow {
  const a = findActivity(d.db, idOrSlug);
  if (!a || !canSeeActivity(d, actor.userId, a)) throw notFound('activity');
  d.permissions.now.require(actor, 'activity:update', a.id);
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
