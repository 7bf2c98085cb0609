import { createHash, timingSafeEqual } from 'node:crypto';
import type { Activity, ActivityDocumentsRequest, ActivitySummary, CreateActivityRequest, Page, ParticipantActivity, Permission, UpdateActivityRequest } from '@judge/contract';
import { and, asc, desc, eq, inArray, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Actor } from '../../auth/permissions.js';
import type { Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import { activities, activityDocuments, files, grants, submissions } from '../../db/schema.js';
import { event, type Audience } from '../../events/bus.js';
import { ApiError, notFound, validation } from '@judge/contract';
import type { Deps } from '../../services.js';
import { iso, newId } from '../../util.js';
import { placeDatesInZone, placeInZone } from '../../zoned-time.js';
import { grantBuiltInRole } from '../access/index.js';
import type { FilesService } from '../files/index.js';
import type { SeriesService } from '../series/index.js';
import { findUserById } from '../users/index.js';
import {
  canManage,
  findActivity,
  isMember,
  managedActivity,
  managerAudience,
  participantAudience,
  requireNotArchived,
  requireScoringKept,
  seesActivity,
  visibleActivity,
  type ActivityRow,
} from '../policy/index.js';
import { copySeries, copyShift, shifted } from './copy.js';
import { toActivity, toParticipantActivity } from './views.js';
import { contestRows } from './contests.js';

type CreateInput = z.output<typeof CreateActivityRequest>;
type UpdateInput = z.output<typeof UpdateActivityRequest>;
type DocumentInput = z.output<typeof ActivityDocumentsRequest>['documents'][number];
type ActivityPatch = Partial<typeof activities.$inferInsert>;
type ActivityState = ParticipantActivity['state'];

/** The dates of a create or update body, which a local date and time gives in the activity's zone. */
const DATE_MEMBERS = ['startDate', 'endDate'] as const;

/** Members of a create or update body stored as they come (null clears, absent keeps). */
const PLAIN_MEMBERS = [
  'name',
  'type',
  'rankingType',
  'timeZone',
  'startDate',
  'endDate',
  'scoreVisibility',
  'attachmentVisibility',
  'props',
  'joinPolicy',
  'unlisted',
  'joinPassword',
  'hideEndedSeriesProblems',
  'showGroupMembers',
  'publicScoreboard',
  'maxUploadBytes',
  'maxAttachments',
  'maxSubmissionsPerProblem',
  'awardRules',
] as const;

/** Column defaults that the rules below need to know about when a new activity leaves them out. */
const NEW_ACTIVITY: Pick<ActivityRow, 'joinPolicy' | 'joinPassword' | 'startDate' | 'endDate' | 'modules'> = {
  joinPolicy: 'closed',
  joinPassword: null,
  startDate: null,
  endDate: null,
  modules: { questions: true, printouts: false, sampleRuns: true },
};

const SUMMARY_LIMIT = 200;

const likePattern = (s: string) => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const slugKey = (slug: string) => slug.toLowerCase();
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** The stored members a body names, `modules` merged member by member into what is stored. */
function patchOf(input: Partial<CreateInput> | UpdateInput, modulesNow: ActivityRow['modules']): ActivityPatch {
  const set: Record<string, unknown> = {};
  for (const k of PLAIN_MEMBERS) if (input[k] !== undefined) set[k] = input[k];
  if (input.runnerTags !== undefined) set.runnerTags = [...new Set(input.runnerTags)];
  if (input.modules) {
    const m = input.modules;
    set.modules = { questions: m.questions ?? modulesNow.questions, printouts: m.printouts ?? modulesNow.printouts, sampleRuns: m.sampleRuns ?? modulesNow.sampleRuns ?? true };
  }
  return set as ActivityPatch;
}

/**
 * Applies the rules that tie members together to a patch of `before` (or of a new activity):
 * a closed activity is unlisted (decisions §6), an end never precedes the start, and choosing the
 * password policy, or clearing the password under it, needs a password to be left.
 */
function settle(before: Pick<ActivityRow, 'joinPolicy' | 'joinPassword' | 'startDate' | 'endDate'>, set: ActivityPatch): void {
  const after = { ...before, ...set };
  if (after.joinPolicy === 'closed') set.unlisted = true;
  if (after.startDate && after.endDate && after.endDate < after.startDate) throw validation('endDate', 'must not be before startDate');
  const touchesPassword = set.joinPolicy === 'password' || set.joinPassword === null;
  if (touchesPassword && after.joinPolicy === 'password' && !after.joinPassword) throw validation('joinPassword', 'is required with the password join policy');
}

/**
 * Activities, their documents and enrolment: the managers' side and the participants' (decisions §9).
 *
 * Every check-then-write (a free slug, a document's files, a member enrolling) runs inside one
 * `d.tx.write`: on SQLite one writer at a time; on PostgreSQL the transaction's SERIALIZABLE
 * isolation, retried by the engine, with the unique slug indexes behind the slug checks.
 */
export class ActivitiesService {
  constructor(
    private readonly d: Deps,
    files: FilesService,
    private readonly seriesService: SeriesService,
  ) {
    // an activity document is read by whoever may see the activity
    files.addReadRule((actor, fileId) => this.documentReadable(actor.userId, fileId));
    // a series moved the activity's own dates: members hear it as from an activity update
    seriesService.onActivityMoved(async (q, before, after, out) => {
      this.announceTimes(before, after, out);
      await this.announceUpdate(q, after, out);
    });
  }

  // ---- lookups and announcements ----

  private async documentReadable(userId: string, fileId: string): Promise<boolean> {
    const holders = await this.d.tx.read((q) =>
      q
        .select({ a: activities })
        .from(activityDocuments)
        .innerJoin(activities, eq(activities.id, activityDocuments.activityId))
        .where(eq(activityDocuments.fileId, fileId)),
    );
    if (!holders.length) return false;
    const p = await this.d.permissions.of(userId);
    return holders.some((h) => seesActivity(p, h.a));
  }

  /** The activity if the caller may see it and holds `key` there: 404 when unseen, 403 when only seen. */
  private async activityWith(q: Q, actor: Actor, idOrSlug: string, key: Permission): Promise<ActivityRow> {
    const a = await visibleActivity(this.d, actor, idOrSlug, q);
    await this.d.permissions.require(actor, key, a.id, q);
    return a;
  }

  private async requireSlugFree(q: Q, slug: string): Promise<void> {
    const taken = await q.select({ id: activities.id }).from(activities).where(eq(activities.slugKey, slugKey(slug))).limit(1);
    if (taken.length) throw ApiError.of('activity.slug.taken', `An activity with the slug ${slug} exists`);
  }

  /**
   * Freezes a permission audience into the users it names now. A deleted activity takes its grants
   * with it, so an audience judged after the commit would no longer find its members.
   */
  private async usersNow(q: Q, audience: Audience, activityId: string): Promise<Audience> {
    if (audience.kind !== 'permission') return audience;
    const candidates = await q
      .selectDistinct({ userId: grants.userId })
      .from(grants)
      .where(or(eq(grants.activityId, activityId), isNull(grants.activityId)));
    const held = await this.d.permissions.ofUsers(
      candidates.map((c) => c.userId),
      q,
    );
    const userIds = [...held.values()].filter((p) => p.has(audience.key, activityId)).map((p) => p.userId);
    return { kind: 'users', userIds };
  }

  /** Participants hear that the activity changed as they see it; its managers get the whole record. */
  private async announceUpdate(q: Q, a: ActivityRow, out: Outbox): Promise<Activity> {
    const view = await toActivity(q, a);
    out.emit(event('activityUpdated', { activityId: a.id, slug: a.slug, name: a.name }, participantAudience(a)));
    out.emit(event('activityChanged', { activity: view }, managerAudience(a.id)));
    return view;
  }

  /** Participants hear of a new start or end (`activityTimesChanged`). */
  private announceTimes(before: ActivityRow, row: ActivityRow, out: Outbox): void {
    if (row.startDate === before.startDate && row.endDate === before.endDate) return;
    const times = { activityId: row.id, ...(row.startDate ? { startDate: row.startDate } : {}), ...(row.endDate ? { endDate: row.endDate } : {}) };
    out.emit(event('activityTimesChanged', times, participantAudience(row)));
  }

  private async saved(q: Q, id: string, set: ActivityPatch): Promise<ActivityRow> {
    return (await q.update(activities).set(set).where(eq(activities.id, id)).returning())[0]!;
  }

  // ---- managers ----

  async create(actor: Actor, input: CreateInput): Promise<Activity> {
    await this.d.permissions.require(actor, 'activity:create');
    return this.d.tx.write(async (q, out) => {
      await this.requireSlugFree(q, input.slug);
      const set = patchOf(placeDatesInZone(input, DATE_MEMBERS, input.timeZone), NEW_ACTIVITY.modules);
      settle(NEW_ACTIVITY, set);
      const now = iso(this.d.clock.now());
      const [row] = await q
        .insert(activities)
        .values({ ...set, id: newId(), slug: input.slug, slugKey: slugKey(input.slug), name: input.name, createdAt: now, publishedAt: now })
        .returning();
      await grantBuiltInRole(q, this.d, actor.userId, 'manager', row!.id, out);
      const view = await toActivity(q, row!);
      out.emit(event('activityCreated', { activityId: row!.id, slug: row!.slug, name: row!.name }, participantAudience(row!)));
      out.emit(event('activityChanged', { activity: view }, managerAudience(row!.id)));
      return view;
    });
  }

  async update(actor: Actor, idOrSlug: string, input: UpdateInput): Promise<Activity> {
    return this.d.tx.write(async (q, out) => {
      const a = await managedActivity(this.d, actor, idOrSlug, q);
      if (slugKey(input.slug) !== slugKey(a.slug)) throw ApiError.of('activity.slug.immutable', `The slug stays ${a.slug}: slugs never change`);
      requireNotArchived(a);
      const set = patchOf(placeDatesInZone(input, DATE_MEMBERS, input.timeZone ?? a.timeZone), a.modules);
      settle(a, set);
      requireScoringKept(a, a, set, ['rankingType', 'startDate']);
      const row = Object.keys(set).length ? await this.saved(q, a.id, set) : a;
      // the series that shared a date move with it; one left outside refuses the update
      await this.seriesService.followActivity(q, a, row, out);
      this.announceTimes(a, row, out);
      return this.announceUpdate(q, row, out);
    });
  }

  /**
   * Publishing shows the activity to participants and opens the series whose time has come;
   * unpublishing withdraws it (those who saw it are told it is gone) and closes its open series.
   */
  async setPublished(actor: Actor, id: string, published: boolean): Promise<Activity> {
    return this.d.tx.write(async (q, out) => {
      const a = await managedActivity(this.d, actor, id, q);
      // the first publication time is kept across repeated publishing
      const publishedAt = published ? (a.publishedAt ?? iso(this.d.clock.now())) : null;
      const row = publishedAt === a.publishedAt ? a : await this.saved(q, a.id, { publishedAt });
      if (!a.publishedAt && row.publishedAt) out.emit(event('activityCreated', { activityId: row.id, slug: row.slug, name: row.name }, participantAudience(row)));
      if (a.publishedAt && !row.publishedAt) out.emit(event('activityDeleted', { activityId: a.id }, participantAudience(a)));
      await this.seriesService.settleActivity(q, row, out);
      return this.announceUpdate(q, row, out);
    });
  }

  async setArchived(actor: Actor, idOrSlug: string, archived: boolean): Promise<Activity> {
    return this.d.tx.write(async (q, out) => {
      const a = await this.activityWith(q, actor, idOrSlug, 'activity:archive');
      const archivedAt = archived ? (a.archivedAt ?? iso(this.d.clock.now())) : null;
      const row = archivedAt === a.archivedAt ? a : await this.saved(q, a.id, { archivedAt });
      return this.announceUpdate(q, row, out);
    });
  }

  async delete(actor: Actor, idOrSlug: string): Promise<void> {
    await this.d.tx.write(async (q, out) => {
      const a = await this.activityWith(q, actor, idOrSlug, 'activity:delete');
      const submitted = await q.select({ id: submissions.id }).from(submissions).where(eq(submissions.activityId, a.id)).limit(1);
      if (submitted.length) throw ApiError.of('activity.hasSubmissions', 'The activity holds submissions; archive it instead');
      const participants = await this.usersNow(q, participantAudience(a), a.id);
      const managers = await this.usersNow(q, managerAudience(a.id), a.id);
      // grants first: the activity's own roles go with it, and a grant still naming one would block that
      await q.delete(grants).where(eq(grants.activityId, a.id));
      await q.delete(activities).where(eq(activities.id, a.id));
      out.touchPermissions();
      out.emit(event('activityDeleted', { activityId: a.id }, participants));
      out.emit(event('activityChanged', { deletedId: a.id }, managers));
    });
  }

  /**
   * Copies an activity with its series, assignments and documents (the same files), unpublished and
   * without a join password; series start closed, as if they had never opened.
   */
  async duplicate(actor: Actor, id: string, input: { slug: string; startsAt: string }): Promise<Activity> {
    await this.d.permissions.require(actor, 'activity:create');
    return this.d.tx.write(async (q, out) => {
      const source = await this.activityWith(q, actor, id, 'activity:update');
      await this.requireSlugFree(q, input.slug);
      // the copy keeps the source's zone, so a local start is read there
      const ms = await copyShift(q, source, placeInZone(input.startsAt, source.timeZone, 'startsAt'));
      const now = iso(this.d.clock.now());
      const [copy] = await q
        .insert(activities)
        .values({
          ...source,
          id: newId(),
          slug: input.slug,
          slugKey: slugKey(input.slug),
          createdAt: now,
          startDate: shifted(source.startDate, ms),
          endDate: shifted(source.endDate, ms),
          joinPassword: null,
          publishedAt: null,
          archivedAt: null,
          // a display link is the source's secret: the copy gets its own when staff make one
          displayToken: null,
        })
        .returning();
      await copySeries(q, source.id, copy!.id, ms, now);
      const docs = await q.select().from(activityDocuments).where(eq(activityDocuments.activityId, source.id));
      if (docs.length) await q.insert(activityDocuments).values(docs.map((doc) => ({ ...doc, activityId: copy!.id })));
      await grantBuiltInRole(q, this.d, actor.userId, 'manager', copy!.id, out);
      const view = await toActivity(q, copy!);
      out.emit(event('activityChanged', { activity: view }, managerAudience(copy!.id)));
      return view;
    });
  }

  /**
   * The files a caller may name in documents: their own uploads (any file, for an administrator),
   * and those the activity's documents already name, so a co-manager can keep what another set.
   */
  private async requireUsableFiles(q: Q, actor: Actor, activityId: string, docs: DocumentInput[]): Promise<void> {
    const admin = await this.d.permissions.isAdministrator(actor.userId, q);
    const named = [...new Set(docs.map((doc) => doc.fileId))];
    const found = named.length ? await q.select({ id: files.id, uploadedBy: files.uploadedBy }).from(files).where(inArray(files.id, named)) : [];
    const inUse = new Set((await q.select({ fileId: activityDocuments.fileId }).from(activityDocuments).where(eq(activityDocuments.activityId, activityId))).map((r) => r.fileId));
    const usable = new Set(found.filter((f) => admin || f.uploadedBy === actor.userId || inUse.has(f.id)).map((f) => f.id));
    const errors: Record<string, string[]> = {};
    docs.forEach((doc, i) => {
      if (!usable.has(doc.fileId)) errors[`documents.${i}.fileId`] = ['no such file, or not yours to use'];
    });
    if (Object.keys(errors).length) throw ApiError.of('file.missing', 'A document names a file that does not exist or that you may not read', errors);
  }

  async setDocuments(actor: Actor, idOrSlug: string, kind: string, docs: DocumentInput[]): Promise<Activity> {
    return this.d.tx.write(async (q, out) => {
      const a = await managedActivity(this.d, actor, idOrSlug, q);
      requireNotArchived(a);
      const languages = docs.map((doc) => doc.language.toLowerCase());
      const repeated = languages.findIndex((l, i) => languages.indexOf(l) !== i);
      if (repeated >= 0) throw validation(`documents.${repeated}.language`, 'one document per language');
      await this.requireUsableFiles(q, actor, a.id, docs);
      const now = iso(this.d.clock.now());
      await q.delete(activityDocuments).where(and(eq(activityDocuments.activityId, a.id), eq(activityDocuments.kind, kind)));
      if (docs.length) {
        await q
          .insert(activityDocuments)
          .values(docs.map((doc) => ({ activityId: a.id, kind, language: doc.language, title: doc.title, fileId: doc.fileId, validFrom: doc.validFrom ? placeInZone(doc.validFrom, a.timeZone, 'validFrom') : now })));
      }
      return this.announceUpdate(q, a, out);
    });
  }

  async deleteDocuments(actor: Actor, idOrSlug: string, kind: string): Promise<Activity> {
    return this.d.tx.write(async (q, out) => {
      const a = await managedActivity(this.d, actor, idOrSlug, q);
      requireNotArchived(a);
      await q.delete(activityDocuments).where(and(eq(activityDocuments.activityId, a.id), eq(activityDocuments.kind, kind)));
      return this.announceUpdate(q, a, out);
    });
  }

  /**
   * Ids of the activities where the user holds activity:update, newest first. Holders of the key
   * system-wide start from every activity, others from their memberships; each is then asked
   * again, so an administrator who stood down somewhere does not manage it there.
   */
  private async managedIds(q: Q, userId: string, filter: { search?: string | undefined; includeArchived?: boolean | undefined }): Promise<string[]> {
    const where: SQL[] = [];
    const p = await this.d.permissions.of(userId, q);
    if (!p.has('activity:update')) {
      const mine = p.memberships();
      if (!mine.length) return [];
      where.push(inArray(activities.id, mine));
    }
    if (!filter.includeArchived) where.push(isNull(activities.archivedAt));
    const term = filter.search?.trim();
    if (term) {
      const pattern = likePattern(term);
      where.push(or(sql`lower(${activities.slug}) LIKE ${pattern} ESCAPE '\\'`, sql`lower(${activities.name}) LIKE ${pattern} ESCAPE '\\'`)!);
    }
    const rows = await q
      .select({ id: activities.id })
      .from(activities)
      .where(where.length ? and(...where) : undefined)
      .orderBy(desc(activities.createdAt), desc(activities.id));
    return rows.map((r) => r.id).filter((id) => p.has('activity:update', id));
  }

  private async rowsInOrder(q: Q, ids: string[]): Promise<ActivityRow[]> {
    if (!ids.length) return [];
    const byId = new Map((await q.select().from(activities).where(inArray(activities.id, ids))).map((a) => [a.id, a]));
    return ids.map((id) => byId.get(id)!);
  }

  /** Every contest with start and end dates, unchecked (see contestRows): for the CLICS API. */
  contests(): Promise<ActivityRow[]> {
    return this.d.tx.read(contestRows);
  }

  async listManaged(actor: Actor, query: { page: number; pageSize: number; search?: string | undefined; includeArchived?: boolean | undefined }): Promise<Page<Activity>> {
    return this.d.tx.read(async (q) => {
      const ids = await this.managedIds(q, actor.userId, query);
      const pageIds = ids.slice((query.page - 1) * query.pageSize, query.page * query.pageSize);
      const items: Activity[] = [];
      for (const a of await this.rowsInOrder(q, pageIds)) items.push(await toActivity(q, a));
      return { items, total: ids.length, page: query.page, pageSize: query.pageSize };
    });
  }

  async managedSummary(actor: Actor): Promise<z.output<typeof ActivitySummary>[]> {
    return this.d.tx.read(async (q) => {
      const ids = (await this.managedIds(q, actor.userId, {})).slice(0, SUMMARY_LIMIT);
      return (await this.rowsInOrder(q, ids)).map((a) => ({ id: a.id, slug: a.slug, name: a.name }));
    });
  }

  /** One managed activity; to anyone without activity:update there it does not exist. */
  async getManaged(actor: Actor, idOrSlug: string): Promise<Activity> {
    return this.d.tx.read(async (q) => {
      const a = await findActivity(q, idOrSlug);
      if (!a || !(await canManage(this.d, actor.userId, a.id, q))) throw notFound('activity');
      return toActivity(q, a);
    });
  }

  // ---- participants ----

  /** SQL for "the activity is in one of these states at `now`", matching activityState(). */
  private stateFilter(states: ActivityState[], now: string): SQL | undefined {
    const started = or(isNull(activities.startDate), sql`${activities.startDate} <= ${now}`)!;
    const conditions: Record<ActivityState, SQL> = {
      upcoming: sql`${activities.startDate} > ${now}`,
      ongoing: and(started, or(isNull(activities.endDate), sql`${activities.endDate} > ${now}`))!,
      finished: and(started, isNotNull(activities.endDate), sql`${activities.endDate} <= ${now}`)!,
    };
    return or(...[...new Set(states)].map((s) => conditions[s]));
  }

  /**
   * Published, unarchived activities the caller belongs to or may find and join (listed, not
   * closed); by start, latest first, those without a start last, then by name.
   */
  async list(actor: Actor, query: { page: number; pageSize: number; state?: string | undefined; search?: string | undefined }): Promise<Page<ParticipantActivity>> {
    const now = this.d.clock.now();
    const mine = await this.d.permissions.memberships(actor.userId);
    const findable = and(eq(activities.unlisted, false), ne(activities.joinPolicy, 'closed'))!;
    const where: (SQL | undefined)[] = [isNotNull(activities.publishedAt), isNull(activities.archivedAt), mine.length ? or(inArray(activities.id, mine), findable) : findable];
    if (query.state) where.push(this.stateFilter(query.state.split(',') as ActivityState[], iso(now)));
    const term = query.search?.trim();
    if (term) {
      const pattern = likePattern(term);
      where.push(or(sql`lower(${activities.slug}) LIKE ${pattern} ESCAPE '\\'`, sql`lower(${activities.name}) LIKE ${pattern} ESCAPE '\\'`));
    }
    const filter = and(...where);
    return this.d.tx.read(async (q) => {
      const [count] = await q.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(activities).where(filter);
      const rows = await q
        .select()
        .from(activities)
        .where(filter)
        .orderBy(sql`${activities.startDate} IS NULL`, desc(activities.startDate), asc(activities.name), asc(activities.id))
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize);
      const items: ParticipantActivity[] = [];
      for (const a of rows) items.push(await toParticipantActivity(this.d, q, actor.userId, a, now));
      return { items, total: count?.n ?? 0, page: query.page, pageSize: query.pageSize };
    });
  }

  async get(actor: Actor, idOrSlug: string): Promise<ParticipantActivity> {
    return this.d.tx.read(async (q) => {
      const a = await visibleActivity(this.d, actor, idOrSlug, q);
      return toParticipantActivity(this.d, q, actor.userId, a, this.d.clock.now());
    });
  }

  /** Compares hashes, so neither the length nor the content of the password leaks through timing. */
  private passwordMatches(given: string | undefined, stored: string | null): boolean {
    if (given === undefined || stored === null) return false;
    return timingSafeEqual(sha256(given), sha256(stored));
  }

  /**
   * Joins the caller as a participant, as the join policy allows. A member enrolling again changes
   * nothing: a manager must not be demoted to participant by it.
   */
  async enrol(actor: Actor, idOrSlug: string, password: string | undefined): Promise<ParticipantActivity> {
    const a = await this.d.tx.write(async (q, out) => {
      const found = await findActivity(q, idOrSlug);
      if (found) requireNotArchived(found);
      const a = await visibleActivity(this.d, actor, idOrSlug, q);
      if (await isMember(this.d, actor.userId, a.id, q)) return a;
      if (!(await findUserById(q, actor.userId))?.approvedAt) throw ApiError.of('account.notApproved', 'Your account awaits approval; it cannot enrol yet');
      if (a.joinPolicy === 'closed') throw ApiError.of('enrolment.closed', 'This activity takes no enrolments; ask its managers');
      if (a.joinPolicy === 'password' && !this.passwordMatches(password, a.joinPassword)) throw ApiError.of('enrolment.password', 'The join password is missing or wrong');
      await grantBuiltInRole(q, this.d, actor.userId, 'participant', a.id, out);
      // the managers' view counts participants
      out.emit(event('activityChanged', { activity: await toActivity(q, a) }, managerAudience(a.id)));
      return a;
    });
    // read after the commit, when the new grant is in the permission cache
    return this.d.tx.read((q) => toParticipantActivity(this.d, q, actor.userId, a, this.d.clock.now()));
  }
}
