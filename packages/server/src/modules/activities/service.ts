import { createHash, timingSafeEqual } from 'node:crypto';
import type { Activity, ActivityDocumentsRequest, ActivitySummary, CreateActivityRequest, Page, ParticipantActivity, Permission, UpdateActivityRequest } from '@judge/contract';
import { and, asc, desc, eq, inArray, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Actor } from '../../auth/permissions.js';
import type { Outbox } from '../../db/transactor.js';
import { activities, activityDocuments, files, grants, submissions } from '../../db/schema.js';
import { event, type Audience } from '../../events/bus.js';
import { ApiError, notFound, validation } from '@judge/contract';
import type { Deps } from '../../services.js';
import { iso, newId } from '../../util.js';
import { placeDatesInZone, placeInZone } from '../../zoned-time.js';
import { grantBuiltInRoleNow } from '../access/index.js';
import type { FilesService } from '../files/index.js';
import type { SeriesService } from '../series/index.js';
import { findUserByIdNow } from '../users/index.js';
import {
  canManage,
  canSeeActivity,
  findActivity,
  isMember,
  managedActivity,
  managerAudience,
  participantAudience,
  requireNotArchived,
  visibleActivity,
  type ActivityRow,
} from '../policy/index.js';
import { copySeries, copyShift, shifted } from './copy.js';
import { toActivity, toParticipantActivity } from './views.js';

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
  'maxUploadBytes',
  'maxAttachments',
  'maxSubmissionsPerProblem',
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

/** Moves an instant by `ms`, keeping an absent one absent. */

/** Activities, their documents and enrolment: the managers' side and the participants' (decisions §9). */
export class ActivitiesService {
  constructor(
    private readonly d: Deps,
    files: FilesService,
    private readonly seriesService: SeriesService,
  ) {
    // an activity document is read by whoever may see the activity
    files.addReadRule((actor, fileId) => this.documentReadable(actor.userId, fileId));
    // a series moved the activity's own dates: members hear it as from an activity update
    seriesService.onActivityMoved((before, after, out) => {
      this.announceTimes(before, after, out);
      this.announceUpdate(after, out);
    });
  }

  // ---- lookups and announcements ----

  private documentReadable(userId: string, fileId: string): boolean {
    const holders = this.d.db
      .select({ a: activities })
      .from(activityDocuments)
      .innerJoin(activities, eq(activities.id, activityDocuments.activityId))
      .where(eq(activityDocuments.fileId, fileId))
      .all();
    return holders.some((h) => canSeeActivity(this.d, userId, h.a));
  }

  /** The activity if the caller may see it and holds `key` there: 404 when unseen, 403 when only seen. */
  private activityWith(actor: Actor, idOrSlug: string, key: Permission): ActivityRow {
    const a = findActivity(this.d.db, idOrSlug);
    if (!a || !canSeeActivity(this.d, actor.userId, a)) throw notFound('activity');
    this.d.permissions.now.require(actor, key, a.id);
    return a;
  }

  private requireSlugFree(slug: string): void {
    const taken = this.d.db.select({ id: activities.id }).from(activities).where(eq(activities.slugKey, slugKey(slug))).get();
    if (taken) throw ApiError.of('activity.slug.taken', `An activity with the slug ${slug} exists`);
  }

  /**
   * Freezes a permission audience into the users it names now. A deleted activity takes its grants
   * with it, so an audience judged after the commit would no longer find its members.
   */
  private usersNow(audience: Audience, activityId: string): Audience {
    if (audience.kind !== 'permission') return audience;
    const candidates = this.d.db
      .selectDistinct({ userId: grants.userId })
      .from(grants)
      .where(or(eq(grants.activityId, activityId), isNull(grants.activityId)))
      .all();
    const userIds = candidates.map((c) => c.userId).filter((u) => this.d.permissions.now.has(u, audience.key, activityId));
    return { kind: 'users', userIds };
  }

  /** Participants hear that the activity changed as they see it; its managers get the whole record. */
  private announceUpdate(a: ActivityRow, out: Outbox): Activity {
    const view = toActivity(this.d.db, a);
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

  private saved(id: string, set: ActivityPatch): ActivityRow {
    return this.d.db.update(activities).set(set).where(eq(activities.id, id)).returning().get()!;
  }

  // ---- managers ----

  create(actor: Actor, input: CreateInput): Activity {
    this.d.permissions.now.require(actor, 'activity:create');
    return this.d.tx.run((out) => {
      this.requireSlugFree(input.slug);
      const set = patchOf(placeDatesInZone(input, DATE_MEMBERS, input.timeZone), NEW_ACTIVITY.modules);
      settle(NEW_ACTIVITY, set);
      const now = iso(this.d.clock.now());
      const row = this.d.db
        .insert(activities)
        .values({ ...set, id: newId(), slug: input.slug, slugKey: slugKey(input.slug), name: input.name, createdAt: now, publishedAt: now })
        .returning()
        .get();
      grantBuiltInRoleNow(this.d, actor.userId, 'manager', row.id, out);
      const view = toActivity(this.d.db, row);
      out.emit(event('activityCreated', { activityId: row.id, slug: row.slug, name: row.name }, participantAudience(row)));
      out.emit(event('activityChanged', { activity: view }, managerAudience(row.id)));
      return view;
    });
  }

  update(actor: Actor, idOrSlug: string, input: UpdateInput): Activity {
    return this.d.tx.run((out) => {
      const a = managedActivity(this.d, actor, idOrSlug);
      if (slugKey(input.slug) !== slugKey(a.slug)) throw ApiError.of('activity.slug.immutable', `The slug stays ${a.slug}: slugs never change`);
      requireNotArchived(a);
      const set = patchOf(placeDatesInZone(input, DATE_MEMBERS, input.timeZone ?? a.timeZone), a.modules);
      settle(a, set);
      const row = Object.keys(set).length ? this.saved(a.id, set) : a;
      // the series that shared a date move with it; one left outside refuses the update
      this.seriesService.followActivity(a, row, out);
      this.announceTimes(a, row, out);
      return this.announceUpdate(row, out);
    });
  }

  /**
   * Publishing shows the activity to participants and opens the series whose time has come;
   * unpublishing withdraws it (those who saw it are told it is gone) and closes its open series.
   */
  setPublished(actor: Actor, id: string, published: boolean): Activity {
    return this.d.tx.run((out) => {
      const a = managedActivity(this.d, actor, id);
      // the first publication time is kept across repeated publishing
      const publishedAt = published ? (a.publishedAt ?? iso(this.d.clock.now())) : null;
      const row = publishedAt === a.publishedAt ? a : this.saved(a.id, { publishedAt });
      if (!a.publishedAt && row.publishedAt) out.emit(event('activityCreated', { activityId: row.id, slug: row.slug, name: row.name }, participantAudience(row)));
      if (a.publishedAt && !row.publishedAt) out.emit(event('activityDeleted', { activityId: a.id }, participantAudience(a)));
      this.seriesService.settleActivity(row, out);
      return this.announceUpdate(row, out);
    });
  }

  setArchived(actor: Actor, idOrSlug: string, archived: boolean): Activity {
    return this.d.tx.run((out) => {
      const a = this.activityWith(actor, idOrSlug, 'activity:archive');
      const archivedAt = archived ? (a.archivedAt ?? iso(this.d.clock.now())) : null;
      const row = archivedAt === a.archivedAt ? a : this.saved(a.id, { archivedAt });
      return this.announceUpdate(row, out);
    });
  }

  delete(actor: Actor, idOrSlug: string): void {
    this.d.tx.run((out) => {
      const a = this.activityWith(actor, idOrSlug, 'activity:delete');
      const submitted = this.d.db.select({ id: submissions.id }).from(submissions).where(eq(submissions.activityId, a.id)).limit(1).get();
      if (submitted) throw ApiError.of('activity.hasSubmissions', 'The activity holds submissions; archive it instead');
      const participants = this.usersNow(participantAudience(a), a.id);
      const managers = this.usersNow(managerAudience(a.id), a.id);
      // grants first: the activity's own roles go with it, and a grant still naming one would block that
      this.d.db.delete(grants).where(eq(grants.activityId, a.id)).run();
      this.d.db.delete(activities).where(eq(activities.id, a.id)).run();
      out.touchPermissions();
      out.emit(event('activityDeleted', { activityId: a.id }, participants));
      out.emit(event('activityChanged', { deletedId: a.id }, managers));
    });
  }

  /**
   * Copies an activity with its series, assignments and documents (the same files), unpublished and
   * without a join password; series start closed, as if they had never opened.
   */
  duplicate(actor: Actor, id: string, input: { slug: string; startsAt: string }): Activity {
    this.d.permissions.now.require(actor, 'activity:create');
    return this.d.tx.run((out) => {
      const source = this.activityWith(actor, id, 'activity:update');
      this.requireSlugFree(input.slug);
      // the copy keeps the source's zone, so a local start is read there
      const ms = copyShift(this.d, source, placeInZone(input.startsAt, source.timeZone, 'startsAt'));
      const now = iso(this.d.clock.now());
      const copy = this.d.db
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
        })
        .returning()
        .get();
      copySeries(this.d, source.id, copy.id, ms, now);
      const docs = this.d.db.select().from(activityDocuments).where(eq(activityDocuments.activityId, source.id)).all();
      if (docs.length) this.d.db.insert(activityDocuments).values(docs.map((doc) => ({ ...doc, activityId: copy.id }))).run();
      grantBuiltInRoleNow(this.d, actor.userId, 'manager', copy.id, out);
      const view = toActivity(this.d.db, copy);
      out.emit(event('activityChanged', { activity: view }, managerAudience(copy.id)));
      return view;
    });
  }

  /**
   * The files a caller may name in documents: their own uploads (any file, for an administrator),
   * and those the activity's documents already name, so a co-manager can keep what another set.
   */
  private requireUsableFiles(actor: Actor, activityId: string, docs: DocumentInput[]): void {
    const admin = this.d.permissions.now.isAdministrator(actor.userId);
    const named = [...new Set(docs.map((doc) => doc.fileId))];
    const found = this.d.db.select({ id: files.id, uploadedBy: files.uploadedBy }).from(files).where(inArray(files.id, named)).all();
    const inUse = new Set(
      this.d.db
        .select({ fileId: activityDocuments.fileId })
        .from(activityDocuments)
        .where(eq(activityDocuments.activityId, activityId))
        .all()
        .map((r) => r.fileId),
    );
    const usable = new Set(found.filter((f) => admin || f.uploadedBy === actor.userId || inUse.has(f.id)).map((f) => f.id));
    const errors: Record<string, string[]> = {};
    docs.forEach((doc, i) => {
      if (!usable.has(doc.fileId)) errors[`documents.${i}.fileId`] = ['no such file, or not yours to use'];
    });
    if (Object.keys(errors).length) throw ApiError.of('file.missing', 'A document names a file that does not exist or that you may not read', errors);
  }

  setDocuments(actor: Actor, idOrSlug: string, kind: string, docs: DocumentInput[]): Activity {
    return this.d.tx.run((out) => {
      const a = managedActivity(this.d, actor, idOrSlug);
      requireNotArchived(a);
      const languages = docs.map((doc) => doc.language.toLowerCase());
      const repeated = languages.findIndex((l, i) => languages.indexOf(l) !== i);
      if (repeated >= 0) throw validation(`documents.${repeated}.language`, 'one document per language');
      this.requireUsableFiles(actor, a.id, docs);
      const now = iso(this.d.clock.now());
      this.d.db
        .delete(activityDocuments)
        .where(and(eq(activityDocuments.activityId, a.id), eq(activityDocuments.kind, kind)))
        .run();
      this.d.db
        .insert(activityDocuments)
        .values(docs.map((doc) => ({ activityId: a.id, kind, language: doc.language, title: doc.title, fileId: doc.fileId, validFrom: doc.validFrom ? placeInZone(doc.validFrom, a.timeZone, 'validFrom') : now })))
        .run();
      return this.announceUpdate(a, out);
    });
  }

  deleteDocuments(actor: Actor, idOrSlug: string, kind: string): Activity {
    return this.d.tx.run((out) => {
      const a = managedActivity(this.d, actor, idOrSlug);
      requireNotArchived(a);
      this.d.db
        .delete(activityDocuments)
        .where(and(eq(activityDocuments.activityId, a.id), eq(activityDocuments.kind, kind)))
        .run();
      return this.announceUpdate(a, out);
    });
  }

  /**
   * Ids of the activities where the user holds activity:update, newest first. Holders of the key
   * system-wide start from every activity, others from their memberships; each is then asked
   * again, so an administrator who stood down somewhere does not manage it there.
   */
  private managedIds(userId: string, filter: { search?: string | undefined; includeArchived?: boolean | undefined }): string[] {
    const where: SQL[] = [];
    if (!this.d.permissions.now.has(userId, 'activity:update')) {
      const mine = this.d.permissions.now.memberships(userId);
      if (!mine.length) return [];
      where.push(inArray(activities.id, mine));
    }
    if (!filter.includeArchived) where.push(isNull(activities.archivedAt));
    const term = filter.search?.trim();
    if (term) {
      const pattern = likePattern(term);
      where.push(or(sql`lower(${activities.slug}) LIKE ${pattern} ESCAPE '\\'`, sql`lower(${activities.name}) LIKE ${pattern} ESCAPE '\\'`)!);
    }
    return this.d.db
      .select({ id: activities.id })
      .from(activities)
      .where(where.length ? and(...where) : undefined)
      .orderBy(desc(activities.createdAt), desc(activities.id))
      .all()
      .map((r) => r.id)
      .filter((id) => this.d.permissions.now.has(userId, 'activity:update', id));
  }

  private rowsInOrder(ids: string[]): ActivityRow[] {
    if (!ids.length) return [];
    const byId = new Map(this.d.db.select().from(activities).where(inArray(activities.id, ids)).all().map((a) => [a.id, a]));
    return ids.map((id) => byId.get(id)!);
  }

  listManaged(actor: Actor, q: { page: number; pageSize: number; search?: string | undefined; includeArchived?: boolean | undefined }): Page<Activity> {
    const ids = this.managedIds(actor.userId, q);
    const pageIds = ids.slice((q.page - 1) * q.pageSize, q.page * q.pageSize);
    return { items: this.rowsInOrder(pageIds).map((a) => toActivity(this.d.db, a)), total: ids.length, page: q.page, pageSize: q.pageSize };
  }

  managedSummary(actor: Actor): z.output<typeof ActivitySummary>[] {
    const ids = this.managedIds(actor.userId, {}).slice(0, SUMMARY_LIMIT);
    return this.rowsInOrder(ids).map((a) => ({ id: a.id, slug: a.slug, name: a.name }));
  }

  /** One managed activity; to anyone without activity:update there it does not exist. */
  getManaged(actor: Actor, idOrSlug: string): Activity {
    const a = findActivity(this.d.db, idOrSlug);
    if (!a || !canManage(this.d, actor.userId, a.id)) throw notFound('activity');
    return toActivity(this.d.db, a);
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
  list(actor: Actor, q: { page: number; pageSize: number; state?: string | undefined; search?: string | undefined }): Page<ParticipantActivity> {
    const now = this.d.clock.now();
    const mine = this.d.permissions.now.memberships(actor.userId);
    const findable = and(eq(activities.unlisted, false), ne(activities.joinPolicy, 'closed'))!;
    const where: (SQL | undefined)[] = [isNotNull(activities.publishedAt), isNull(activities.archivedAt), mine.length ? or(inArray(activities.id, mine), findable) : findable];
    if (q.state) where.push(this.stateFilter(q.state.split(',') as ActivityState[], iso(now)));
    const term = q.search?.trim();
    if (term) {
      const pattern = likePattern(term);
      where.push(or(sql`lower(${activities.slug}) LIKE ${pattern} ESCAPE '\\'`, sql`lower(${activities.name}) LIKE ${pattern} ESCAPE '\\'`));
    }
    const filter = and(...where);
    const total = this.d.db.select({ n: sql<number>`count(*)` }).from(activities).where(filter).get()?.n ?? 0;
    const rows = this.d.db
      .select()
      .from(activities)
      .where(filter)
      .orderBy(sql`${activities.startDate} IS NULL`, desc(activities.startDate), asc(activities.name), asc(activities.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .all();
    return { items: rows.map((a) => toParticipantActivity(this.d, actor.userId, a, now)), total, page: q.page, pageSize: q.pageSize };
  }

  get(actor: Actor, idOrSlug: string): ParticipantActivity {
    const a = visibleActivity(this.d, actor, idOrSlug);
    return toParticipantActivity(this.d, actor.userId, a, this.d.clock.now());
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
  enrol(actor: Actor, idOrSlug: string, password: string | undefined): ParticipantActivity {
    const a = this.d.tx.run((out) => {
      const found = findActivity(this.d.db, idOrSlug);
      if (found) requireNotArchived(found);
      const a = visibleActivity(this.d, actor, idOrSlug);
      if (isMember(this.d, actor.userId, a.id)) return a;
      if (!findUserByIdNow(this.d.db, actor.userId)?.approvedAt) throw ApiError.of('account.notApproved', 'Your account awaits approval; it cannot enrol yet');
      if (a.joinPolicy === 'closed') throw ApiError.of('enrolment.closed', 'This activity takes no enrolments; ask its managers');
      if (a.joinPolicy === 'password' && !this.passwordMatches(password, a.joinPassword)) throw ApiError.of('enrolment.password', 'The join password is missing or wrong');
      grantBuiltInRoleNow(this.d, actor.userId, 'participant', a.id, out);
      // the managers' view counts participants
      out.emit(event('activityChanged', { activity: toActivity(this.d.db, a) }, managerAudience(a.id)));
      return a;
    });
    // read after the commit, when the new grant is in the permission cache
    return toParticipantActivity(this.d, actor.userId, a, this.d.clock.now());
  }
}
