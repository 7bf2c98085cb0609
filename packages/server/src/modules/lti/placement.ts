import { and, eq } from 'drizzle-orm';
import { ltiGrades, ltiPlacements, seriesProblems } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import type { Deps } from '../../services.js';
import { iso, newId } from '../../util.js';
import { grantBuiltInRole } from '../access/index.js';
import { canManage, findActivity, isMember, type ActivityRow } from '../policy/index.js';
import { LtiRefusal, type Launch } from './claims.js';

type PlacementRow = typeof ltiPlacements.$inferSelect;

/** Where a launch lands: the activity, the assignment a problem's link names, and the placement. */
export interface Landing {
  activity: ActivityRow;
  problemSlug: string | undefined;
  placement: PlacementRow;
}

/** What the link's custom parameters name: undefined when they name nothing, or something unknown. */
async function named(q: Q, L: Launch): Promise<{ activity: ActivityRow; assignmentId: string | null } | undefined> {
  const activity = L.activitySlug ? await findActivity(q, L.activitySlug) : undefined;
  if (!activity) return undefined;
  if (!L.problemSlug) return { activity, assignmentId: null };
  const [a] = await q
    .select({ id: seriesProblems.id })
    .from(seriesProblems)
    .where(and(eq(seriesProblems.activityId, activity.id), eq(seriesProblems.slugKey, L.problemSlug.toLowerCase())))
    .limit(1);
  return a ? { activity, assignmentId: a.id } : undefined;
}

/**
 * The placement of the launch's resource link (decisions §21). A link is bound to what its
 * custom parameters name by the first launch of someone who teaches the course and already
 * manages that activity here (so a course's teacher cannot make themselves manager of any
 * activity by naming it); from then on everybody's launches land there, and only such a launch
 * moves it. The line item scores go to is the newest the platform sent.
 */
export async function placementFor(d: Deps, q: Q, L: Launch, userId: string, now: Date): Promise<Landing> {
  const [existing] = await q
    .select()
    .from(ltiPlacements)
    .where(and(eq(ltiPlacements.platformId, L.platform.id), eq(ltiPlacements.contextId, L.contextId), eq(ltiPlacements.resourceLinkId, L.resourceLinkId)))
    .limit(1);
  const wanted = await named(q, L);
  const moves = !!wanted && (!existing || existing.activityId !== wanted.activity.id || existing.assignmentId !== wanted.assignmentId);
  const mayBind = moves && L.staff && (await canManage(d, userId, wanted.activity.id, q));
  if (!existing && !wanted) throw new LtiRefusal('lti.launch.activity', 'The link names no activity of this judge (custom parameter activity=SLUG)');
  if (!existing && !mayBind) throw new LtiRefusal('lti.launch.placement', 'This link is not set up yet: a teacher who manages the activity here opens it first');
  const lineItemUrl = L.lineItem ?? existing?.lineItemUrl ?? null;
  let placement: PlacementRow;
  if (!existing) {
    [placement] = (await q
      .insert(ltiPlacements)
      .values({ id: newId(), platformId: L.platform.id, contextId: L.contextId, resourceLinkId: L.resourceLinkId, activityId: wanted!.activity.id, assignmentId: wanted!.assignmentId, lineItemUrl, createdAt: iso(now), updatedAt: iso(now) })
      .returning()) as [PlacementRow];
    d.log.info({ placementId: placement.id, platformId: L.platform.id, activityId: placement.activityId, userId }, 'LTI link placed');
  } else if (mayBind || lineItemUrl !== existing.lineItemUrl) {
    const to = mayBind ? { activityId: wanted!.activity.id, assignmentId: wanted!.assignmentId } : {};
    [placement] = (await q.update(ltiPlacements).set({ ...to, lineItemUrl, updatedAt: iso(now) }).where(eq(ltiPlacements.id, existing.id)).returning()) as [PlacementRow];
  } else placement = existing;
  const activity = placement.activityId === wanted?.activity.id ? wanted.activity : (await findActivity(q, placement.activityId))!;
  const [assignment] = placement.assignmentId ? await q.select({ slug: seriesProblems.slug }).from(seriesProblems).where(eq(seriesProblems.id, placement.assignmentId)).limit(1) : [];
  return { activity, problemSlug: assignment?.slug, placement };
}

/**
 * The launcher's membership (decisions §21): who manages the activity stays as they are; the
 * course's teachers become `manager`, anyone else `participant` unless already a member (a grant
 * is never lowered). Answers whether the launcher lands on the staff pages.
 */
export async function membershipFor(d: Deps, q: Q, out: Outbox, L: Launch, userId: string, activityId: string): Promise<boolean> {
  if (await canManage(d, userId, activityId, q)) return true;
  if (L.staff) {
    await grantBuiltInRole(q, d, userId, 'manager', activityId, out);
    return true;
  }
  if (!(await isMember(d, userId, activityId, q))) await grantBuiltInRole(q, d, userId, 'participant', activityId, out);
  return false;
}

/**
 * A learner of a placement with a line item: their score is sent once now (what they did before
 * the first launch counts) and after each change of their submissions (grades.ts).
 */
export async function enrolForGrades(q: Q, placement: PlacementRow, userId: string, subject: string, now: Date): Promise<void> {
  if (!placement.lineItemUrl) return;
  await q
    .insert(ltiGrades)
    .values({ placementId: placement.id, userId, subject, changes: 1, nextAttemptAt: iso(now) })
    .onConflictDoUpdate({ target: [ltiGrades.placementId, ltiGrades.userId], set: { subject } });
}
