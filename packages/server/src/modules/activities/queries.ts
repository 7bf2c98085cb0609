import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { grants, roles } from '../../db/schema.js';

/** Members whose role does not let them manage the activity: the participants. */
export function participantCount(db: Db, activityId: string): number {
  return (
    db
      .select({ n: sql<number>`count(*)` })
      .from(grants)
      .innerJoin(roles, eq(roles.id, grants.roleId))
      .where(and(eq(grants.activityId, activityId), sql`NOT EXISTS (SELECT 1 FROM json_each(${roles.permissions}) WHERE value = 'activity:update')`))
      .get()?.n ?? 0
  );
}
