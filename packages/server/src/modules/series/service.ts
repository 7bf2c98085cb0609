import type { CreateAssignmentRequest, CreateSeriesRequest, Permission, Series, UpdateAssignmentRequest, UpdateSeriesRequest } from '@judge/contract';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Actor } from '../../auth/permissions.js';
import type { Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import { activities, problemVersions, series, seriesProblems, submissions } from '../../db/schema.js';
import { event } from '../../events/bus.js';
import { ApiError, notFound, validation } from '@judge/contract';
import type { Deps } from '../../services.js';
import { iso, newId } from '../../util.js';
import { placeDatesInZone, showInZone } from '../../zoned-time.js';
import {
  canManage,
  canSeeActivity,
  findActivity,
  managedActivity,
  managerAudience,
  requireNotArchived,
  requireNotFinalized,
  requireScoringKept,
  type ActivityRow,
} from '../policy/index.js';
import { readableProblem } from '../problems/index.js';
import { followSeries, seriesFollowing, type ActivityMove } from './activity-range.js';
import { announceSeries, reconcile, settleActivity, settleDue, type SeriesChange, type SeriesRow, type SeriesTransition } from './schedule.js';
import { toSeries, toSeriesList, type AssignmentRow } from './views.js';

type CreateSeriesInput = z.output<typeof CreateSeriesRequest>;
type UpdateSeriesInput = z.output<typeof UpdateSeriesRequest>;
type CreateAssignmentInput = z.output<typeof CreateAssignmentRequest>;
type UpdateAssignmentInput = z.output<typeof UpdateAssignmentRequest>;
type SeriesPatch = Partial<typeof series.$inferInsert>;
type AssignmentPatch = Partial<typeof seriesProblems.$inferInsert>;
type ActivityMoved = (q: Q, before: ActivityRow, after: ActivityRow, out: Outbox) => Promise<void>;

/** Series members stored as they come: absent keeps, null clears. */
const SERIES_MEMBERS = [
  'name',
  'startDate',
  'endDate',
  'revealProblemCount',
  'rankingFreezeAt',
  'rankingRevealAt',
  'rankingVisibleFrom',
  'rankingVisibleTo',
  'importance',
  'importanceScope',
  'addressRules',
  'restrictionsEnabled',
] as const;

/** Assignment members stored as they come: absent keeps, null clears. */
const ASSIGNMENT_MEMBERS = ['name', 'config', 'spec', 'props', 'maxPoints', 'maxUploadBytes', 'maxAttachments', 'maxSubmissions'] as const;

/** Every date of a series: what a shift moves. */
const SERIES_DATES = ['startDate', 'endDate', 'rankingFreezeAt', 'rankingRevealAt', 'rankingVisibleFrom', 'rankingVisibleTo'] as const;
/** The dates a resume with `extendEnd` pushes back by the time paused; start and visibleFrom have passed. */
const EXTENDED_ON_RESUME = ['endDate', 'rankingFreezeAt', 'rankingRevealAt', 'rankingVisibleTo'] as const;
/** The dates participants see of a series: changing one of them reschedules it for them. */
const PARTICIPANT_DATES = ['startDate', 'endDate', 'rankingVisibleFrom', 'rankingVisibleTo'] as const;
/** Pairs of dates of which the second may not come before the first. */
const DATE_ORDER = [
  ['startDate', 'endDate'],
  ['rankingFreezeAt', 'rankingRevealAt'],
  ['rankingVisibleFrom', 'rankingVisibleTo'],
] as const;

const slugKey = (slug: string) => slug.toLowerCase();

/** Why a series keeps the activity's new dates from being stored, in the activity's own time. */
function outsideText(o: ActivityMove['outside'][number], zone: string): string {
  const date = showInZone(o.date, zone);
  const bound = showInZone(o.bound, zone);
  if (o.why === 'startsBefore') return `the series ${o.slug} starts at ${date}, before the activity's new start ${bound}`;
  if (o.why === 'endsAfter') return `the series ${o.slug} ends at ${date}, after the activity's new end ${bound}`;
  return `the series ${o.slug} would end at ${date}, before it starts at ${bound}`;
}
const moved = (t: string | null | undefined, ms: number): string | null => (t ? new Date(Date.parse(t) + ms).toISOString() : null);

/** The members a body names, its local dates read in the activity's zone. */
function seriesPatchOf(body: CreateSeriesInput | UpdateSeriesInput, timeZone: string): SeriesPatch {
  const input = placeDatesInZone(body, SERIES_DATES, timeZone);
  const set: Record<string, unknown> = {};
  for (const k of SERIES_MEMBERS) if (input[k] !== undefined) set[k] = input[k];
  if (input.runnerTags !== undefined) set.runnerTags = [...new Set(input.runnerTags)];
  return set as SeriesPatch;
}

function assignmentPatchOf(input: CreateAssignmentInput | UpdateAssignmentInput): AssignmentPatch {
  const set: Record<string, unknown> = {};
  for (const k of ASSIGNMENT_MEMBERS) if (input[k] !== undefined) set[k] = input[k];
  return set as AssignmentPatch;
}

/** Refuses dates that end before they begin, judged on the series as it would be stored. */
function requireDatesInOrder(before: Partial<SeriesRow>, set: SeriesPatch): void {
  const after = { ...before, ...set };
  for (const [first, second] of DATE_ORDER) {
    const a = after[first];
    const b = after[second];
    if (a && b && b < a) throw validation(second, `must not be before ${first}`);
  }
}

/**
 * New positions for `current` (in its present order): the ids listed first, in the order given,
 * then the rest in their old order. Returns the ids whose position changed, with the new one.
 */
function arrange(current: { id: string; order: number }[], orderedIds: string[], what: string): Map<string, number> {
  const known = new Set(current.map((r) => r.id));
  const listed = new Set<string>();
  orderedIds.forEach((id, i) => {
    if (!known.has(id)) throw ApiError.of('order.foreign', `orderedIds.${i}: ${id} is not a ${what}`, { [`orderedIds.${i}`]: [`not a ${what}`] });
    if (listed.has(id)) throw validation(`orderedIds.${i}`, 'listed twice');
    listed.add(id);
  });
  const next = [...orderedIds, ...current.filter((r) => !listed.has(r.id)).map((r) => r.id)];
  const changed = new Map<string, number>();
  const was = new Map(current.map((r) => [r.id, r.order]));
  next.forEach((id, i) => {
    if (was.get(id) !== i + 1) changed.set(id, i + 1);
  });
  return changed;
}

/**
 * Series and assignments, the managers' side (decisions §7, §14): writes check the activity's
 * permission, refuse an archived activity, bring `isOpen` in line with the dates at once and tell
 * participants (`seriesChanged`) and managers (`managerSeriesChanged`) what changed.
 *
 * Every check-then-write (a free slug, a series' state, no submissions before a delete) runs inside
 * one `d.tx.write`: on SQLite one writer at a time; on PostgreSQL the transaction's SERIALIZABLE
 * isolation, retried by the engine, with the unique slug indexes behind the slug checks.
 */
export class SeriesService {
  private activityMoved: ActivityMoved = async () => {};

  constructor(private readonly d: Deps) {}

  /**
   * Who tells members that a series write moved the activity's own dates: the activities module,
   * which owns the activity's announcements (and imports this one, so it cannot be imported here).
   */
  onActivityMoved(tell: ActivityMoved): void {
    this.activityMoved = tell;
  }

  /** The activity follows its series' new start and end, if they changed (followedRange). */
  private async follow(q: Q, a: ActivityRow, before: Pick<SeriesRow, 'startDate' | 'endDate'>, row: SeriesRow, out: Outbox): Promise<ActivityRow> {
    if (before.startDate === row.startDate && before.endDate === row.endDate) return a;
    const moved = await followSeries(q, a, before, row);
    if (!moved) return a;
    await this.activityMoved(q, a, moved, out);
    return moved;
  }

  /**
   * The series follow the activity's new start or end, inside the caller's transaction (an
   * activity update): a series date equal to the activity's old one moves with it. When another
   * series would then lie outside the activity's range the whole update is refused (409
   * `activity.seriesOutside`), naming each such series, so the two never disagree silently.
   */
  async followActivity(q: Q, before: ActivityRow, after: ActivityRow, out: Outbox): Promise<void> {
    if (before.startDate === after.startDate && before.endDate === after.endDate) return;
    const rows = await this.seriesRowsOf(q, after.id);
    const { moved, outside } = seriesFollowing(before, after, rows);
    if (outside.length) {
      const errors: Record<string, string[]> = {};
      for (const o of outside) (errors[o.why === 'startsBefore' ? 'startDate' : 'endDate'] ??= []).push(outsideText(o, after.timeZone));
      const why = outside.map((o) => outsideText(o, after.timeZone)).join('; ');
      throw ApiError.of('activity.seriesOutside', `The activity's dates would disagree with its series: ${why}. Move those series first, or choose other dates`, errors);
    }
    for (const s of rows) {
      const range = moved.get(s.id);
      if (!range) continue;
      await this.settle(q, after, await this.saved(q, s.id, range), 'rescheduled', out);
    }
  }

  // ---- lookups ----

  private async activityOf(q: Q, activityId: string): Promise<ActivityRow | undefined> {
    return (await q.select().from(activities).where(eq(activities.id, activityId)).limit(1))[0];
  }

  /**
   * The series with its activity, for a write needing `key` there: 404 when either is unknown or
   * the activity unseen, 403 when seen without the key, 409 when the activity is archived.
   */
  private async seriesFor(q: Q, actor: Actor, seriesId: string, key: Permission): Promise<{ s: SeriesRow; a: ActivityRow }> {
    const [s] = await q.select().from(series).where(eq(series.id, seriesId)).limit(1);
    const a = s && (await this.activityOf(q, s.activityId));
    if (!s || !a || !(await canSeeActivity(this.d, actor.userId, a, q))) throw notFound('series');
    await this.d.permissions.require(actor, key, a.id, q);
    requireNotArchived(a);
    return { s, a };
  }

  /**
   * The assignment with its series and activity, for a write: as seriesFor, and its problem must be
   * readable by the caller (else 404), as it must be to attach it.
   */
  private async assignmentFor(q: Q, actor: Actor, assignmentId: string): Promise<{ sp: AssignmentRow; s: SeriesRow; a: ActivityRow }> {
    const [sp] = await q.select().from(seriesProblems).where(eq(seriesProblems.id, assignmentId)).limit(1);
    if (!sp) throw notFound('assignment');
    const { s, a } = await this.seriesFor(q, actor, sp.seriesId, 'problem:attach');
    await readableProblem(this.d, q, actor, sp.problemId);
    return { sp, s, a };
  }

  private seriesRowsOf(q: Q, activityId: string): Promise<SeriesRow[]> {
    return q.select().from(series).where(eq(series.activityId, activityId)).orderBy(asc(series.order), asc(series.createdAt));
  }

  private assignmentRowsOf(q: Q, seriesId: string): Promise<AssignmentRow[]> {
    return q.select().from(seriesProblems).where(eq(seriesProblems.seriesId, seriesId)).orderBy(asc(seriesProblems.order), asc(seriesProblems.createdAt));
  }

  private async requireSeriesSlugFree(q: Q, activityId: string, slug: string, exceptId?: string): Promise<void> {
    const taken = await q
      .select({ id: series.id })
      .from(series)
      .where(and(eq(series.activityId, activityId), eq(series.slugKey, slugKey(slug)), exceptId ? ne(series.id, exceptId) : undefined))
      .limit(1);
    if (taken.length) throw ApiError.of('series.slug.taken', `The activity has a series with the slug ${slug}`);
  }

  /** Assignment slugs are unique in the whole activity, so that a problem URL names one assignment. */
  private async requireAssignmentSlugFree(q: Q, activityId: string, slug: string, exceptId?: string): Promise<void> {
    const taken = await q
      .select({ id: seriesProblems.id })
      .from(seriesProblems)
      .where(and(eq(seriesProblems.activityId, activityId), eq(seriesProblems.slugKey, slugKey(slug)), exceptId ? ne(seriesProblems.id, exceptId) : undefined))
      .limit(1);
    if (taken.length) throw ApiError.of('assignment.slug.taken', `The activity has a problem with the slug ${slug}`);
  }

  /** A pin must name a version of the assignment's own problem. */
  private async requireOwnVersion(q: Q, problemId: string, versionId: string): Promise<void> {
    const [v] = await q.select({ problemId: problemVersions.problemId }).from(problemVersions).where(eq(problemVersions.id, versionId)).limit(1);
    if (v?.problemId !== problemId) {
      throw ApiError.of('version.foreign', 'pinnedProblemVersionId is not a version of this problem', { pinnedProblemVersionId: ['not a version of this problem'] });
    }
  }

  private async hasSubmissions(q: Q, column: typeof submissions.seriesId | typeof submissions.seriesProblemId, id: string): Promise<boolean> {
    return (await q.select({ id: submissions.id }).from(submissions).where(eq(column, id)).limit(1)).length > 0;
  }

  // ---- writing and telling ----

  private async saved(q: Q, id: string, set: SeriesPatch): Promise<SeriesRow> {
    const [row] = Object.keys(set).length ? await q.update(series).set(set).where(eq(series.id, id)).returning() : await q.select().from(series).where(eq(series.id, id)).limit(1);
    return row!;
  }

  private tellManagers(activityId: string, seriesId: string, out: Outbox): void {
    out.emit(event('managerSeriesChanged', { activityId, seriesId }, managerAudience(activityId)));
  }

  /**
   * Brings `isOpen` in line with the dates, then tells members what they notice: the opening or
   * closing this caused if any, else `fallback` (a rescheduling); managers always hear.
   */
  private async settle(q: Q, a: ActivityRow, row: SeriesRow, fallback: SeriesChange | null, out: Outbox): Promise<SeriesRow> {
    const { row: settled, change } = await reconcile(q, a, row, this.d.clock.now());
    const told = change ?? fallback;
    if (told) await announceSeries(q, a, settled, told, out);
    this.tellManagers(a.id, settled.id, out);
    return settled;
  }

  // ---- scheduling: the one owner of opening and closing series ----

  /**
   * Brings every series of an activity in line with its dates and publication, inside the caller's
   * transaction (the activity was published, unpublished or restored).
   */
  settleActivity(q: Q, a: ActivityRow, out: Outbox): Promise<void> {
    return settleActivity(this.d, q, a, out);
  }

  /** Opens and closes the series whose dates passed by `now`; the series scheduler calls this. */
  settleDue(now: Date): Promise<SeriesTransition[]> {
    return settleDue(this.d, now);
  }

  // ---- series ----

  /**
   * An activity's series with their assignments, unchecked: for an area that decided itself who may
   * read them (the CLICS API, decisions §25).
   */
  async ofActivity(activityId: string): Promise<Series[]> {
    return this.d.tx.read(async (q) => toSeriesList(q, await this.seriesRowsOf(q, activityId)));
  }

  /**
   * The managers' list. Like the other /manager/activities reads (and as the operation documents),
   * an activity the caller does not manage does not exist here: 404, to members too.
   */
  async listManaged(actor: Actor, idOrSlug: string): Promise<Series[]> {
    return this.d.tx.read(async (q) => {
      const a = await findActivity(q, idOrSlug);
      if (!a || !(await canManage(this.d, actor.userId, a.id, q))) throw notFound('activity');
      return toSeriesList(q, await this.seriesRowsOf(q, a.id));
    });
  }

  async create(actor: Actor, idOrSlug: string, input: CreateSeriesInput): Promise<Series> {
    return this.d.tx.write(async (q, out) => {
      const a = await managedActivity(this.d, actor, idOrSlug, q);
      requireNotArchived(a);
      await this.requireSeriesSlugFree(q, a.id, input.slug);
      const set = seriesPatchOf(input, a.timeZone);
      requireDatesInOrder({}, set);
      const [last] = await q.select({ n: sql<number | null>`max(${series.order})`.mapWith(Number) }).from(series).where(eq(series.activityId, a.id));
      const [row] = await q
        .insert(series)
        .values({ ...set, id: newId(), activityId: a.id, slug: input.slug, slugKey: slugKey(input.slug), name: input.name, order: (last?.n ?? 0) + 1, createdAt: iso(this.d.clock.now()) })
        .returning();
      const moved = await this.follow(q, a, { startDate: null, endDate: null }, row!, out);
      return toSeries(q, await this.settle(q, moved, row!, null, out));
    });
  }

  async update(actor: Actor, seriesId: string, input: UpdateSeriesInput): Promise<Series> {
    return this.d.tx.write(async (q, out) => {
      const { s, a } = await this.seriesFor(q, actor, seriesId, 'activity:update');
      const set = seriesPatchOf(input, a.timeZone);
      if (input.slug !== undefined) {
        if (slugKey(input.slug) !== s.slugKey) await this.requireSeriesSlugFree(q, a.id, input.slug, s.id);
        Object.assign(set, { slug: input.slug, slugKey: slugKey(input.slug) });
      }
      requireDatesInOrder(s, set);
      // the start counts the penalty minutes, importance weighs the points
      requireScoringKept(a, s, set, ['startDate', 'importance', 'importanceScope']);
      return this.rescheduled(q, a, s, await this.saved(q, s.id, set), out);
    });
  }

  async shift(actor: Actor, seriesId: string, minutes: number): Promise<Series> {
    return this.d.tx.write(async (q, out) => {
      const { s, a } = await this.seriesFor(q, actor, seriesId, 'activity:update');
      if (minutes !== 0) requireNotFinalized(a);
      const ms = minutes * 60_000;
      const set: SeriesPatch = Object.fromEntries(SERIES_DATES.map((k) => [k, moved(s[k], ms)]));
      return this.rescheduled(q, a, s, await this.saved(q, s.id, set), out);
    });
  }

  /** After a series' dates were stored: the activity follows, the series settles, members hear of a new schedule. */
  private async rescheduled(q: Q, a: ActivityRow, before: SeriesRow, row: SeriesRow, out: Outbox): Promise<Series> {
    const rescheduled = PARTICIPANT_DATES.some((k) => row[k] !== before[k]);
    const activity = await this.follow(q, a, before, row, out);
    return toSeries(q, await this.settle(q, activity, row, rescheduled ? 'rescheduled' : null, out));
  }

  async pause(actor: Actor, seriesId: string, hideProblems: boolean): Promise<Series> {
    return this.d.tx.write(async (q, out) => {
      const { s, a } = await this.seriesFor(q, actor, seriesId, 'activity:update');
      if (s.pausedAt) throw ApiError.of('series.alreadyPaused', `The series has been paused since ${s.pausedAt}`);
      const row = await this.saved(q, s.id, { pausedAt: iso(this.d.clock.now()), hideProblemsWhilePaused: hideProblems, isOpen: false });
      await announceSeries(q, a, row, 'paused', out);
      this.tellManagers(a.id, row.id, out);
      return toSeries(q, row);
    });
  }

  /**
   * Ends a pause. Members hear `resumed`, or `opened` when this is the series' first opening (it
   * was paused before its start), since only `opened` carries the problems withheld until then.
   */
  async resume(actor: Actor, seriesId: string, extendEnd: boolean): Promise<Series> {
    return this.d.tx.write(async (q, out) => {
      const { s, a } = await this.seriesFor(q, actor, seriesId, 'activity:update');
      if (!s.pausedAt) throw ApiError.of('series.notPaused', 'The series is not paused');
      const set: SeriesPatch = { pausedAt: null, hideProblemsWhilePaused: false };
      if (extendEnd) {
        const pausedMs = this.d.clock.now().getTime() - Date.parse(s.pausedAt);
        for (const k of EXTENDED_ON_RESUME) set[k] = moved(s[k], pausedMs);
      }
      const row = await this.saved(q, s.id, set);
      const activity = await this.follow(q, a, s, row, out);
      const { row: settled, change } = await reconcile(q, activity, row, this.d.clock.now());
      await announceSeries(q, activity, settled, change === 'opened' && !s.openedAt ? 'opened' : 'resumed', out);
      this.tellManagers(a.id, settled.id, out);
      return toSeries(q, settled);
    });
  }

  async delete(actor: Actor, seriesId: string): Promise<void> {
    await this.d.tx.write(async (q, out) => {
      const { s, a } = await this.seriesFor(q, actor, seriesId, 'activity:update');
      if (await this.hasSubmissions(q, submissions.seriesId, s.id)) throw ApiError.of('series.hasSubmissions', 'The series holds submissions and cannot be deleted');
      // its assignments go with it (cascade)
      await q.delete(series).where(eq(series.id, s.id));
      out.emit(event('managerSeriesChanged', { activityId: a.id, deletedId: s.id }, managerAudience(a.id)));
    });
  }

  async reorder(actor: Actor, idOrSlug: string, orderedIds: string[]): Promise<Series[]> {
    return this.d.tx.write(async (q, out) => {
      const a = await managedActivity(this.d, actor, idOrSlug, q);
      requireNotArchived(a);
      const changed = arrange(await this.seriesRowsOf(q, a.id), orderedIds, 'series of this activity');
      for (const [id, order] of changed) {
        await q.update(series).set({ order }).where(eq(series.id, id));
        this.tellManagers(a.id, id, out);
      }
      return toSeriesList(q, await this.seriesRowsOf(q, a.id));
    });
  }

  // ---- assignments ----

  async attach(actor: Actor, seriesId: string, input: CreateAssignmentInput): Promise<Series> {
    return this.d.tx.write(async (q, out) => {
      const { s, a } = await this.seriesFor(q, actor, seriesId, 'problem:attach');
      const p = await readableProblem(this.d, q, actor, input.problemId);
      if (p.archivedAt) throw ApiError.of('problem.archived', 'The problem is archived; restore it before attaching it');
      const slug = input.slug ?? p.slug;
      await this.requireAssignmentSlugFree(q, a.id, slug);
      if (input.pinnedProblemVersionId) await this.requireOwnVersion(q, p.id, input.pinnedProblemVersionId);
      const [last] = await q.select({ n: sql<number | null>`max(${seriesProblems.order})`.mapWith(Number) }).from(seriesProblems).where(eq(seriesProblems.seriesId, s.id));
      await q
        .insert(seriesProblems)
        .values({
          ...assignmentPatchOf(input),
          id: newId(),
          seriesId: s.id,
          activityId: a.id,
          problemId: p.id,
          slug,
          slugKey: slugKey(slug),
          order: (last?.n ?? 0) + 1,
          pinnedVersionId: input.pinnedProblemVersionId ?? null,
          createdAt: iso(this.d.clock.now()),
        });
      this.tellManagers(a.id, s.id, out);
      return toSeries(q, s);
    });
  }

  async reorderProblems(actor: Actor, seriesId: string, orderedIds: string[]): Promise<Series> {
    return this.d.tx.write(async (q, out) => {
      const { s, a } = await this.seriesFor(q, actor, seriesId, 'problem:attach');
      const changed = arrange(await this.assignmentRowsOf(q, s.id), orderedIds, 'problem of this series');
      for (const [id, order] of changed) await q.update(seriesProblems).set({ order }).where(eq(seriesProblems.id, id));
      if (changed.size) this.tellManagers(a.id, s.id, out);
      return toSeries(q, s);
    });
  }

  async updateAssignment(actor: Actor, assignmentId: string, input: UpdateAssignmentInput): Promise<Series> {
    return this.d.tx.write(async (q, out) => {
      const { sp, s, a } = await this.assignmentFor(q, actor, assignmentId);
      if (input.problemId !== sp.problemId) throw validation('problemId', 'must be the problem attached; detach it and attach the other one instead');
      const set = assignmentPatchOf(input);
      requireScoringKept(a, sp, set, ['maxPoints']);
      if (slugKey(input.slug) !== sp.slugKey) await this.requireAssignmentSlugFree(q, a.id, input.slug, sp.id);
      Object.assign(set, { slug: input.slug, slugKey: slugKey(input.slug) });
      if (input.pinnedProblemVersionId) await this.requireOwnVersion(q, sp.problemId, input.pinnedProblemVersionId);
      if (input.pinnedProblemVersionId !== undefined) set.pinnedVersionId = input.pinnedProblemVersionId;
      await q.update(seriesProblems).set(set).where(eq(seriesProblems.id, sp.id));
      this.tellManagers(a.id, s.id, out);
      return toSeries(q, s);
    });
  }

  /** Detaches a problem nobody submitted to; answers the series as it is now. */
  async deleteAssignment(actor: Actor, assignmentId: string): Promise<Series> {
    return this.d.tx.write(async (q, out) => {
      const { sp, s, a } = await this.assignmentFor(q, actor, assignmentId);
      if (await this.hasSubmissions(q, submissions.seriesProblemId, sp.id)) throw ApiError.of('assignment.hasSubmissions', 'The problem has submissions in this series and cannot be detached');
      await q.delete(seriesProblems).where(eq(seriesProblems.id, sp.id));
      this.tellManagers(a.id, s.id, out);
      return toSeries(q, s);
    });
  }
}
