import type { CreateAssignmentRequest, CreateSeriesRequest, Permission, Series, UpdateAssignmentRequest, UpdateSeriesRequest } from '@judge/contract';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Actor } from '../../auth/permissions.js';
import type { Outbox } from '../../db/transactor.js';
import { activities, problemVersions, series, seriesProblems, submissions } from '../../db/schema.js';
import { event } from '../../events/bus.js';
import { ApiError, notFound, validation } from '@judge/contract';
import type { Deps } from '../../services.js';
import { iso, newId } from '../../util.js';
import { placeDatesInZone, showInZone } from '../../zoned-time.js';
import { canManage, canSeeActivity, findActivity, managedActivity, managerAudience, requireNotArchived, type ActivityRow } from '../policy/index.js';
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
type ActivityMoved = (before: ActivityRow, after: ActivityRow, out: Outbox) => void;

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
 */
export class SeriesService {
  private activityMoved: ActivityMoved = () => {};

  constructor(private readonly d: Deps) {}

  /**
   * Who tells members that a series write moved the activity's own dates: the activities module,
   * which owns the activity's announcements (and imports this one, so it cannot be imported here).
   */
  onActivityMoved(tell: ActivityMoved): void {
    this.activityMoved = tell;
  }

  /** The activity follows its series' new start and end, if they changed (followedRange). */
  private follow(a: ActivityRow, before: Pick<SeriesRow, 'startDate' | 'endDate'>, row: SeriesRow, out: Outbox): ActivityRow {
    if (before.startDate === row.startDate && before.endDate === row.endDate) return a;
    const moved = followSeries(this.d, a, before, row);
    if (!moved) return a;
    this.activityMoved(a, moved, out);
    return moved;
  }

  /**
   * The series follow the activity's new start or end, inside the caller's transaction (an
   * activity update): a series date equal to the activity's old one moves with it. When another
   * series would then lie outside the activity's range the whole update is refused (409
   * `activity.seriesOutside`), naming each such series, so the two never disagree silently.
   */
  followActivity(before: ActivityRow, after: ActivityRow, out: Outbox): void {
    if (before.startDate === after.startDate && before.endDate === after.endDate) return;
    const rows = this.seriesRowsOf(after.id);
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
      this.settle(after, this.saved(s.id, range), 'rescheduled', out);
    }
  }

  // ---- lookups ----

  private activityOf(activityId: string): ActivityRow {
    return this.d.db.select().from(activities).where(eq(activities.id, activityId)).get()!;
  }

  /**
   * The series with its activity, for a write needing `key` there: 404 when either is unknown or
   * the activity unseen, 403 when seen without the key, 409 when the activity is archived.
   */
  private seriesFor(actor: Actor, seriesId: string, key: Permission): { s: SeriesRow; a: ActivityRow } {
    const s = this.d.db.select().from(series).where(eq(series.id, seriesId)).get();
    const a = s && this.activityOf(s.activityId);
    if (!s || !a || !canSeeActivity(this.d, actor.userId, a)) throw notFound('series');
    this.d.permissions.now.require(actor, key, a.id);
    requireNotArchived(a);
    return { s, a };
  }

  /**
   * The assignment with its series and activity, for a write: as seriesFor, and its problem must be
   * readable by the caller (else 404), as it must be to attach it.
   */
  private assignmentFor(actor: Actor, assignmentId: string): { sp: AssignmentRow; s: SeriesRow; a: ActivityRow } {
    const sp = this.d.db.select().from(seriesProblems).where(eq(seriesProblems.id, assignmentId)).get();
    if (!sp) throw notFound('assignment');
    const { s, a } = this.seriesFor(actor, sp.seriesId, 'problem:attach');
    readableProblem(this.d, actor, sp.problemId);
    return { sp, s, a };
  }

  private seriesRowsOf(activityId: string): SeriesRow[] {
    return this.d.db.select().from(series).where(eq(series.activityId, activityId)).orderBy(asc(series.order), asc(series.createdAt)).all();
  }

  private assignmentRowsOf(seriesId: string): AssignmentRow[] {
    return this.d.db.select().from(seriesProblems).where(eq(seriesProblems.seriesId, seriesId)).orderBy(asc(seriesProblems.order), asc(seriesProblems.createdAt)).all();
  }

  private requireSeriesSlugFree(activityId: string, slug: string, exceptId?: string): void {
    const taken = this.d.db
      .select({ id: series.id })
      .from(series)
      .where(and(eq(series.activityId, activityId), eq(series.slugKey, slugKey(slug)), exceptId ? ne(series.id, exceptId) : undefined))
      .get();
    if (taken) throw ApiError.of('series.slug.taken', `The activity has a series with the slug ${slug}`);
  }

  /** Assignment slugs are unique in the whole activity, so that a problem URL names one assignment. */
  private requireAssignmentSlugFree(activityId: string, slug: string, exceptId?: string): void {
    const taken = this.d.db
      .select({ id: seriesProblems.id })
      .from(seriesProblems)
      .where(and(eq(seriesProblems.activityId, activityId), eq(seriesProblems.slugKey, slugKey(slug)), exceptId ? ne(seriesProblems.id, exceptId) : undefined))
      .get();
    if (taken) throw ApiError.of('assignment.slug.taken', `The activity has a problem with the slug ${slug}`);
  }

  /** A pin must name a version of the assignment's own problem. */
  private requireOwnVersion(problemId: string, versionId: string): void {
    const v = this.d.db.select({ problemId: problemVersions.problemId }).from(problemVersions).where(eq(problemVersions.id, versionId)).get();
    if (v?.problemId !== problemId) {
      throw ApiError.of('version.foreign', 'pinnedProblemVersionId is not a version of this problem', { pinnedProblemVersionId: ['not a version of this problem'] });
    }
  }

  private hasSubmissions(column: typeof submissions.seriesId | typeof submissions.seriesProblemId, id: string): boolean {
    return !!this.d.db.select({ id: submissions.id }).from(submissions).where(eq(column, id)).limit(1).get();
  }

  // ---- writing and telling ----

  private saved(id: string, set: SeriesPatch): SeriesRow {
    return Object.keys(set).length ? this.d.db.update(series).set(set).where(eq(series.id, id)).returning().get()! : this.d.db.select().from(series).where(eq(series.id, id)).get()!;
  }

  private tellManagers(activityId: string, seriesId: string, out: Outbox): void {
    out.emit(event('managerSeriesChanged', { activityId, seriesId }, managerAudience(activityId)));
  }

  /**
   * Brings `isOpen` in line with the dates, then tells members what they notice: the opening or
   * closing this caused if any, else `fallback` (a rescheduling); managers always hear.
   */
  private settle(a: ActivityRow, row: SeriesRow, fallback: SeriesChange | null, out: Outbox): SeriesRow {
    const { row: settled, change } = reconcile(this.d, a, row, this.d.clock.now());
    const told = change ?? fallback;
    if (told) announceSeries(this.d, a, settled, told, out);
    this.tellManagers(a.id, settled.id, out);
    return settled;
  }

  // ---- scheduling: the one owner of opening and closing series ----

  /**
   * Brings every series of an activity in line with its dates and publication, inside the caller's
   * transaction (the activity was published, unpublished or restored).
   */
  settleActivity(a: ActivityRow, out: Outbox): void {
    settleActivity(this.d, a, out);
  }

  /** Opens and closes the series whose dates passed by `now`; the series scheduler calls this. */
  settleDue(now: Date): SeriesTransition[] {
    return settleDue(this.d, now);
  }

  // ---- series ----

  /**
   * The managers' list. Like the other /manager/activities reads (and as the operation documents),
   * an activity the caller does not manage does not exist here: 404, to members too.
   */
  listManaged(actor: Actor, idOrSlug: string): Series[] {
    const a = findActivity(this.d.db, idOrSlug);
    if (!a || !canManage(this.d, actor.userId, a.id)) throw notFound('activity');
    return toSeriesList(this.d.db, this.seriesRowsOf(a.id));
  }

  create(actor: Actor, idOrSlug: string, input: CreateSeriesInput): Series {
    return this.d.tx.run((out) => {
      const a = managedActivity(this.d, actor, idOrSlug);
      requireNotArchived(a);
      this.requireSeriesSlugFree(a.id, input.slug);
      const set = seriesPatchOf(input, a.timeZone);
      requireDatesInOrder({}, set);
      const last = this.d.db.select({ n: sql<number | null>`max(${series.order})` }).from(series).where(eq(series.activityId, a.id)).get()?.n ?? 0;
      const row = this.d.db
        .insert(series)
        .values({ ...set, id: newId(), activityId: a.id, slug: input.slug, slugKey: slugKey(input.slug), name: input.name, order: last + 1, createdAt: iso(this.d.clock.now()) })
        .returning()
        .get();
      const moved = this.follow(a, { startDate: null, endDate: null }, row, out);
      return toSeries(this.d.db, this.settle(moved, row, null, out));
    });
  }

  update(actor: Actor, seriesId: string, input: UpdateSeriesInput): Series {
    return this.d.tx.run((out) => {
      const { s, a } = this.seriesFor(actor, seriesId, 'activity:update');
      const set = seriesPatchOf(input, a.timeZone);
      if (input.slug !== undefined) {
        if (slugKey(input.slug) !== s.slugKey) this.requireSeriesSlugFree(a.id, input.slug, s.id);
        Object.assign(set, { slug: input.slug, slugKey: slugKey(input.slug) });
      }
      requireDatesInOrder(s, set);
      const row = this.saved(s.id, set);
      const rescheduled = PARTICIPANT_DATES.some((k) => row[k] !== s[k]);
      return toSeries(this.d.db, this.settle(this.follow(a, s, row, out), row, rescheduled ? 'rescheduled' : null, out));
    });
  }

  shift(actor: Actor, seriesId: string, minutes: number): Series {
    return this.d.tx.run((out) => {
      const { s, a } = this.seriesFor(actor, seriesId, 'activity:update');
      const ms = minutes * 60_000;
      const set: SeriesPatch = Object.fromEntries(SERIES_DATES.map((k) => [k, moved(s[k], ms)]));
      const row = this.saved(s.id, set);
      const rescheduled = PARTICIPANT_DATES.some((k) => row[k] !== s[k]);
      return toSeries(this.d.db, this.settle(this.follow(a, s, row, out), row, rescheduled ? 'rescheduled' : null, out));
    });
  }

  pause(actor: Actor, seriesId: string, hideProblems: boolean): Series {
    return this.d.tx.run((out) => {
      const { s, a } = this.seriesFor(actor, seriesId, 'activity:update');
      if (s.pausedAt) throw ApiError.of('series.alreadyPaused', `The series has been paused since ${s.pausedAt}`);
      const row = this.saved(s.id, { pausedAt: iso(this.d.clock.now()), hideProblemsWhilePaused: hideProblems, isOpen: false });
      announceSeries(this.d, a, row, 'paused', out);
      this.tellManagers(a.id, row.id, out);
      return toSeries(this.d.db, row);
    });
  }

  /**
   * Ends a pause. Members hear `resumed`, or `opened` when this is the series' first opening (it
   * was paused before its start), since only `opened` carries the problems withheld until then.
   */
  resume(actor: Actor, seriesId: string, extendEnd: boolean): Series {
    return this.d.tx.run((out) => {
      const { s, a } = this.seriesFor(actor, seriesId, 'activity:update');
      if (!s.pausedAt) throw ApiError.of('series.notPaused', 'The series is not paused');
      const set: SeriesPatch = { pausedAt: null, hideProblemsWhilePaused: false };
      if (extendEnd) {
        const pausedMs = this.d.clock.now().getTime() - Date.parse(s.pausedAt);
        for (const k of EXTENDED_ON_RESUME) set[k] = moved(s[k], pausedMs);
      }
      const row = this.saved(s.id, set);
      const activity = this.follow(a, s, row, out);
      const { row: settled, change } = reconcile(this.d, activity, row, this.d.clock.now());
      announceSeries(this.d, activity, settled, change === 'opened' && !s.openedAt ? 'opened' : 'resumed', out);
      this.tellManagers(a.id, settled.id, out);
      return toSeries(this.d.db, settled);
    });
  }

  delete(actor: Actor, seriesId: string): void {
    this.d.tx.run((out) => {
      const { s, a } = this.seriesFor(actor, seriesId, 'activity:update');
      if (this.hasSubmissions(submissions.seriesId, s.id)) throw ApiError.of('series.hasSubmissions', 'The series holds submissions and cannot be deleted');
      // its assignments go with it (cascade)
      this.d.db.delete(series).where(eq(series.id, s.id)).run();
      out.emit(event('managerSeriesChanged', { activityId: a.id, deletedId: s.id }, managerAudience(a.id)));
    });
  }

  reorder(actor: Actor, idOrSlug: string, orderedIds: string[]): Series[] {
    return this.d.tx.run((out) => {
      const a = managedActivity(this.d, actor, idOrSlug);
      requireNotArchived(a);
      const changed = arrange(this.seriesRowsOf(a.id), orderedIds, 'series of this activity');
      for (const [id, order] of changed) {
        this.d.db.update(series).set({ order }).where(eq(series.id, id)).run();
        this.tellManagers(a.id, id, out);
      }
      return toSeriesList(this.d.db, this.seriesRowsOf(a.id));
    });
  }

  // ---- assignments ----

  attach(actor: Actor, seriesId: string, input: CreateAssignmentInput): Series {
    return this.d.tx.run((out) => {
      const { s, a } = this.seriesFor(actor, seriesId, 'problem:attach');
      const p = readableProblem(this.d, actor, input.problemId);
      if (p.archivedAt) throw ApiError.of('problem.archived', 'The problem is archived; restore it before attaching it');
      const slug = input.slug ?? p.slug;
      this.requireAssignmentSlugFree(a.id, slug);
      if (input.pinnedProblemVersionId) this.requireOwnVersion(p.id, input.pinnedProblemVersionId);
      const last = this.d.db.select({ n: sql<number | null>`max(${seriesProblems.order})` }).from(seriesProblems).where(eq(seriesProblems.seriesId, s.id)).get()?.n ?? 0;
      this.d.db
        .insert(seriesProblems)
        .values({
          ...assignmentPatchOf(input),
          id: newId(),
          seriesId: s.id,
          activityId: a.id,
          problemId: p.id,
          slug,
          slugKey: slugKey(slug),
          order: last + 1,
          pinnedVersionId: input.pinnedProblemVersionId ?? null,
          createdAt: iso(this.d.clock.now()),
        })
        .run();
      this.tellManagers(a.id, s.id, out);
      return toSeries(this.d.db, s);
    });
  }

  reorderProblems(actor: Actor, seriesId: string, orderedIds: string[]): Series {
    return this.d.tx.run((out) => {
      const { s, a } = this.seriesFor(actor, seriesId, 'problem:attach');
      const changed = arrange(this.assignmentRowsOf(s.id), orderedIds, 'problem of this series');
      for (const [id, order] of changed) this.d.db.update(seriesProblems).set({ order }).where(eq(seriesProblems.id, id)).run();
      if (changed.size) this.tellManagers(a.id, s.id, out);
      return toSeries(this.d.db, s);
    });
  }

  updateAssignment(actor: Actor, assignmentId: string, input: UpdateAssignmentInput): Series {
    return this.d.tx.run((out) => {
      const { sp, s, a } = this.assignmentFor(actor, assignmentId);
      if (input.problemId !== sp.problemId) throw validation('problemId', 'must be the problem attached; detach it and attach the other one instead');
      const set = assignmentPatchOf(input);
      if (slugKey(input.slug) !== sp.slugKey) this.requireAssignmentSlugFree(a.id, input.slug, sp.id);
      Object.assign(set, { slug: input.slug, slugKey: slugKey(input.slug) });
      if (input.pinnedProblemVersionId) this.requireOwnVersion(sp.problemId, input.pinnedProblemVersionId);
      if (input.pinnedProblemVersionId !== undefined) set.pinnedVersionId = input.pinnedProblemVersionId;
      this.d.db.update(seriesProblems).set(set).where(eq(seriesProblems.id, sp.id)).run();
      this.tellManagers(a.id, s.id, out);
      return toSeries(this.d.db, s);
    });
  }

  /** Detaches a problem nobody submitted to; answers the series as it is now. */
  deleteAssignment(actor: Actor, assignmentId: string): Series {
    return this.d.tx.run((out) => {
      const { sp, s, a } = this.assignmentFor(actor, assignmentId);
      if (this.hasSubmissions(submissions.seriesProblemId, sp.id)) throw ApiError.of('assignment.hasSubmissions', 'The problem has submissions in this series and cannot be detached');
      this.d.db.delete(seriesProblems).where(eq(seriesProblems.id, sp.id)).run();
      this.tellManagers(a.id, s.id, out);
      return toSeries(this.d.db, s);
    });
  }
}
