import { eq, sql } from 'drizzle-orm';
import type { Q } from '../../db/storage.js';
import { grants, roles } from '../../db/schema.js';

/**
 * Members whose role does not let them manage the activity: the participants. Counted per role in
 * SQL and the roles judged here, since a role's permissions are a JSON list that the two engines
 * search differently; an activity's members hold a handful of roles.
 */
export async function participantCount(q: Q, activityId: string): Promise<number> {
  const perRole = await q
    .select({ permissions: roles.permissions, n: sql<number>`count(*)`.mapWith(Number) })
    .from(grants)
    .innerJoin(roles, eq(roles.id, grants.roleId))
    .where(eq(grants.activityId, activityId))
    // by the key alone: PostgreSQL takes the permissions as depending on it, and a JSON column has no equality to group by
    .groupBy(roles.id);
  return perRole.reduce((n, r) => (r.permissions.includes('activity:update') ? n : n + r.n), 0);
}
