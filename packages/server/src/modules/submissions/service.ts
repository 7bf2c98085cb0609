import { clampPaging, type Page, type SubmissionDetail, type SubmissionSummary, type SubmissionsQuery } from '@judge/contract';
import type { z } from 'zod';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { BlockList, isIPv6 } from 'node:net';
import { and, asc, count, desc, eq, inArray, max, type SQL } from 'drizzle-orm';
import type { Actor, UserPermissions } from '../../auth/permissions.js';
import { activities, attempts, problems, problemVersions, series as seriesTable, seriesProblems, submissionFiles, submissions, users } from '../../db/schema.js';
import { lockedRows, type Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import { ApiError, notFound } from '@judge/contract';
import { languageName, languageRefusal, submissionLanguage, type LanguageLimits } from '../../languages.js';
import type { Deps } from '../../services.js';
import { iso, newId } from '../../util.js';
import { canManage, canSeeActivity, findActivity, requireNotFinalized, requireResultsOpen, visibleActivity, type ActivityRow } from '../policy/index.js';
import type { FilesService } from '../files/index.js';
import { readJudgeableLanguages, requiredTags } from '../runners/index.js';
import { acceptsSubmissions, problemsVisible } from '../series/index.js';
import { ownSubmissions } from './own-list.js';
import { countSubmissions, fileAsAttachment, fileAsSource, listFilter } from './queries.js';
import { allInActivity, detailOf, oneInActivity, newestFirstOrder, selectSubmissions, submissionRow, toSummary, type SubmissionRow } from './views.js';

type ListQuery = z.output<typeof SubmissionsQuery>;

/** What submitting and rejudging read of an assignment. */
const ASSIGNMENT = {
  id: seriesProblems.id,
  activityId: seriesProblems.activityId,
  seriesId: seriesProblems.seriesId,
  problemId: seriesProblems.problemId,
  pinnedVersionId: seriesProblems.pinnedVersionId,
  maxUploadBytes: seriesProblems.maxUploadBytes,
  maxAttachments: seriesProblems.maxAttachments,
  maxSubmissions: seriesProblems.maxSubmissions,
  config: seriesProblems.config,
};

/** The assignment `where` finds. */
async function assignmentWhere(q: Q, where: SQL | undefined) {
  return (await q.select(ASSIGNMENT).from(seriesProblems).where(where).limit(1))[0];
}
type Assignment = NonNullable<Awaited<ReturnType<typeof assignmentWhere>>>;

/** What a submission may become once its bytes arrive: every rule that does not need them has passed. */
export interface SubmitPlan {
  activity: ActivityRow;
  assignment: Assignment;
  versionId: string;
  problemType: string;
  /** The largest file of the submission. */
  maxUploadBytes: number;
  /** The most files a submission holds. */
  maxAttachments: number;
  /** null: no limit applies (none set, or a manager testing) */
  maxSubmissions: number | null;
  /** The runner tags its jobs require. */
  runnerTags: readonly string[];
  /** The languages the approved runners with those tags reported (readJudgeableLanguages); undefined when not known. */
  judgeable: ReadonlySet<string> | undefined;
}

export interface SubmitInput {
  /** The files in the form's order; the first is stored as `source`. */
  uploads: { tempPath: string; name: string; declaredSha256: string }[];
  props: Record<string, unknown> | undefined;
  ipAddress: string;
  deviceId: string | undefined;
}

/**
 * A submission file's name among the submission's files: the first is `source` (as a one-file
 * submission's always was), the others `source-002`... so that sorting by name keeps the form's order.
 */
function storedName(index: number): string {
  return index === 0 ? 'source' : `source-${String(index + 1).padStart(3, '0')}`;
}

/** Refuses (422 checksum_mismatch) before any file is kept when one file's bytes do not hash to its declared digest. */
async function refuseMismatches(uploads: SubmitInput['uploads']): Promise<void> {
  for (const u of uploads) {
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(u.tempPath)) hash.update(chunk as Buffer);
    const sha256 = hash.digest('hex');
    if (sha256 !== u.declaredSha256.toLowerCase()) {
      throw ApiError.of('checksum_mismatch', `The bytes of ${u.name} hash to ${sha256}, not the declared ${u.declaredSha256.toLowerCase()}`, {
        sha256: ['does not match the file'],
      });
    }
  }
}

const UNFINISHED = ['queued', 'running'];

/**
 * What submitting, rejudging and exclusion ask of judging; the judging module answers it (app.ts
 * wires it in), so submissions never reach into jobs or outcomes.
 */
export interface SubmissionJudging {
  /** Re-derives a submission from its attempts and tells who must know, inside the caller's transaction (`q`). */
  settle(q: Q, submissionId: string, out: Outbox, opts: { stateChanged: boolean; resultChanged: boolean }): Promise<SubmissionRow>;
  /** An attempt was queued: waiting runners look again once the caller's transaction commits. */
  queued(out: Outbox): void;
}

/**
 * Submissions (decisions §7, §9): a participant's submit with its refusals in order, their own list
 * and detail, and the managers' side: the filtered list, detail, rejudge (a new attempt), cancel,
 * exclusion, and the rejudge of a whole assignment.
 *
 * On PostgreSQL: the submission limit is counted again inside the write that stores the
 * submission, and a cancel reads the attempt's state inside its write; the writes' SERIALIZABLE
 * isolation (retried) keeps two racing requests from both passing the check. The judging flow's
 * claims lock the attempts they take (FOR UPDATE SKIP LOCKED, judging).
 */
export class SubmissionsService {
  constructor(
    private readonly d: Deps,
    private readonly files: FilesService,
    private readonly judging: SubmissionJudging,
  ) {
    files.addReadRule((actor, fileId) => this.mayReadFile(actor.userId, fileId));
  }

  // ---- submitting ----

  /**
   * The checks that come before the body is read, in the contract's order: the activity (404 when
   * it cannot be seen, 409 when archived), the problem (404 when not shown), the permission, the
   * series taking submissions, the address rules, the limit, and a version to judge against.
   * Managers of the activity may submit to closed series and past limits, to test their problems.
   * A sample run (`forSampleRun`) passes the same checks but the limit: it is never a submission, so
   * it counts against none; before the permission it asks the activity's sampleRuns module.
   */
  async plan(actor: Actor, idOrSlug: string, problemSlug: string, address: string, forSampleRun = false): Promise<SubmitPlan> {
    const a = await visibleActivity(this.d, actor, idOrSlug);
    const may = await this.d.permissions.of(actor.userId);
    if (!may.has('activity:read', a.id)) throw notFound('activity');
    if (a.archivedAt) throw ApiError.of('activity.archived', 'The activity is archived: it takes no submissions');
    if (!forSampleRun) requireNotFinalized(a);
    const manages = await canManage(this.d, actor.userId, a.id);
    return this.d.tx.read(async (q) => {
      const found = await assignmentWhere(q, and(eq(seriesProblems.activityId, a.id), eq(seriesProblems.slugKey, problemSlug.toLowerCase())));
      const series = found ? (await q.select().from(seriesTable).where(eq(seriesTable.id, found.seriesId)).limit(1))[0] : undefined;
      if (!found || !series || !(manages || problemsVisible(series, a))) throw notFound('problem');
      may.require('submission:create', a.id);
      if (forSampleRun && a.modules.sampleRuns === false) throw ApiError.of('sampleRuns.disabled', 'Running code on the samples is switched off in this activity');
      if (!manages) {
        if (!acceptsSubmissions(series)) throw ApiError.of('series.closed', series.pausedAt ? 'The series is paused' : 'The series is not open for submissions');
        if (series.restrictionsEnabled && !addressAllowed(address, series.addressRules)) {
          throw ApiError.of('series.address', `Submissions to this series are not taken from ${address}`);
        }
      }
      const maxSubmissions = manages || forSampleRun ? null : (found.maxSubmissions ?? a.maxSubmissionsPerProblem);
      if (maxSubmissions !== null && (await countOwn(q, actor.userId, found.id)) >= maxSubmissions) {
        throw ApiError.of('submission.limit', `The limit of ${maxSubmissions} submissions to this problem is reached`);
      }
      const version = await effectiveVersion(q, found);
      if (!version) throw ApiError.of('problem.noVersion', 'The problem has no version to judge against yet');
      const runnerTags = requiredTags(series.runnerTags, a.runnerTags);
      return {
        activity: a,
        assignment: found,
        versionId: version.id,
        problemType: version.type,
        maxUploadBytes: found.maxUploadBytes ?? a.maxUploadBytes,
        maxAttachments: found.maxAttachments ?? a.maxAttachments,
        maxSubmissions,
        runnerTags,
        // read here, in the plan's one read, for refuseUnjudgeable once the file names are known
        judgeable: await readJudgeableLanguages(q, runnerTags),
      };
    });
  }

  /**
   * Refuses (422 `submission.language`) a submission no runner would judge: its file name and props
   * give no language, the table lacks it, the assignment does not allow it, or no approved runner
   * matching the assignment reported it. Managers testing are refused alike: such a test judges
   * nothing. Needs only the file names and props, so nothing is stored yet.
   */
  refuseUnjudgeable(plan: SubmitPlan, fileNames: readonly string[], props: Record<string, unknown> | undefined): void {
    const limits: LanguageLimits = { config: plan.assignment.config, judgeable: plan.judgeable };
    const refusal = languageRefusal(this.d.config.languages, fileNames, props, limits);
    if (refusal) throw refusal;
  }

  /**
   * Stores the bytes (every file's SHA-256 checked before any is kept), then the submission, its
   * files and its first attempt, in one transaction.
   */
  async submit(actor: Actor, plan: SubmitPlan, input: SubmitInput): Promise<SubmissionSummary> {
    if (input.uploads.length > 1) await refuseMismatches(input.uploads);
    const metas: Awaited<ReturnType<FilesService['upload']>>[] = [];
    for (const u of input.uploads) metas.push(await this.files.upload(actor, { ...u, mimeType: 'text/plain' }));
    const language = submissionLanguage(this.d.config.languages, input.uploads.map((u) => u.name), input.props) ?? null;
    // rowLocks: the limit is the one check-then-write, about the author's rows; the rest are inserts
    // and the new submission's own row (storage.ts, Isolation)
    const row = await this.d.tx.writeLocking(async (q, out) => {
      // the limit again, inside the transaction: two submissions racing for the last one cannot both
      // pass. PostgreSQL: the author's row, locked first, makes the second wait for the first's commit,
      // and its count (a statement after the lock) then sees the first's submission
      await requireResultsOpen(q, plan.activity.id);
      if (plan.maxSubmissions !== null) {
        await lockedRows(q.select({ id: users.id }).from(users).where(eq(users.id, actor.userId)), users);
        if ((await countOwn(q, actor.userId, plan.assignment.id)) >= plan.maxSubmissions) {
          throw ApiError.of('submission.limit', `The limit of ${plan.maxSubmissions} submissions to this problem is reached`);
        }
      }
      const id = newId();
      const now = iso(this.d.clock.now());
      await q.insert(submissions).values({
        id,
        activityId: plan.activity.id,
        seriesId: plan.assignment.seriesId,
        seriesProblemId: plan.assignment.id,
        problemVersionId: plan.versionId,
        userId: actor.userId,
        submittedAt: now,
        props: input.props ?? null,
        state: 'queued',
        attempts: 1,
        ipAddress: input.ipAddress,
        sessionId: actor.sessionId,
        deviceId: input.deviceId ?? null,
      });
      await q
        .insert(submissionFiles)
        .values(metas.map((meta, i) => ({ submissionId: id, name: storedName(i), fileName: input.uploads[i]!.name, language, fileId: meta.id })));
      await this.queueAttempt(q, id, 1, plan.versionId, plan.problemType, 0, now);
      this.judging.queued(out);
      return this.judging.settle(q, id, out, { stateChanged: true, resultChanged: true });
    });
    return toSummary(row);
  }

  private async queueAttempt(q: Q, submissionId: string, attempt: number, versionId: string, problemType: string, priority: number, now: string): Promise<void> {
    await q.insert(attempts).values({ id: newId(), submissionId, attempt, state: 'queued', priority, problemVersionId: versionId, problemType, createdAt: now });
  }

  // ---- the participant's own ----

  /** The activity, if the caller may browse it, with the caller's permissions for the checks that follow. */
  private async browsing(actor: Actor, idOrSlug: string): Promise<{ a: ActivityRow; may: UserPermissions }> {
    const a = await visibleActivity(this.d, actor, idOrSlug);
    const may = await this.d.permissions.of(actor.userId);
    if (!may.has('activity:read', a.id)) throw notFound('activity');
    return { a, may };
  }

  async listOwn(actor: Actor, idOrSlug: string, query: { page?: number; pageSize?: number; seriesProblemId?: string }): Promise<Page<SubmissionSummary>> {
    const { a, may } = await this.browsing(actor, idOrSlug);
    may.require('submission:read:own', a.id);
    const { page, pageSize } = clampPaging(query);
    const { total, rows } = await this.d.tx.read(async (q) => {
      // the poll of every participant's page, without a problem: its queries are built once (own-list.ts)
      if (!query.seriesProblemId) return ownSubmissions(q, a.id, actor.userId, page, pageSize);
      const where = and(eq(submissions.activityId, a.id), eq(submissions.userId, actor.userId), eq(submissions.seriesProblemId, query.seriesProblemId));
      return { total: await countSubmissions(q, where, false), rows: await this.newestFirst(q, where, page, pageSize) };
    });
    const ownResults = may.has('result:read:own', a.id);
    return { items: rows.map((r) => this.named(this.forAuthor(toSummary(r), ownResults))), total, page, pageSize };
  }

  /** One page of the submissions `where` lets through, newest first. */
  private newestFirst(q: Q, where: SQL | undefined, page: number, pageSize: number): Promise<SubmissionRow[]> {
    return selectSubmissions(q)
      .where(where)
      .orderBy(...newestFirstOrder())
      .limit(pageSize)
      .offset((page - 1) * pageSize);
  }

  /** The language's name from the language table, for lists and pages that show it (not for events). */
  private named<T extends SubmissionSummary>(s: T): T {
    const name = s.language ? languageName(this.d.config.languages, s.language) : undefined;
    return name ? { ...s, languageName: name } : s;
  }

  /** Without result:read:own the author sees that a submission was judged, not how. */
  private forAuthor<T extends SubmissionSummary>(s: T, ownResults: boolean): T {
    if (ownResults) return s;
    const { verdict: _v, score: _s, maxScore: _m, ...rest } = s;
    return rest as T;
  }

  async getOwn(actor: Actor, idOrSlug: string, id: string): Promise<SubmissionDetail> {
    const { a, may } = await this.browsing(actor, idOrSlug);
    return this.d.tx.read(async (q) => {
      const r = await submissionRow(q, id);
      if (!r || r.activityId !== a.id) throw notFound('submission');
      const readsAll = may.has('submission:read:all', a.id);
      if (r.userId === actor.userId ? !may.has('submission:read:own', a.id) && !readsAll : !readsAll) throw notFound('submission');
      if (readsAll) return this.managerDetail(q, actor, r);
      const shown = participantAttachments(a);
      const detail = await detailOf(q, r, { forManager: false, attachmentShown: (name) => shown.has(name) });
      return this.named(this.forAuthor(detail, may.has('result:read:own', a.id)));
    });
  }

  // ---- the managers' side ----

  private async managerDetail(q: Q, actor: Actor, r: SubmissionRow): Promise<SubmissionDetail> {
    const logs = await this.d.permissions.has(actor.userId, 'result:log:read:all', r.activityId, q);
    const a = (await q.select().from(activities).where(eq(activities.id, r.activityId)).limit(1))[0]!;
    const shown = participantAttachments(a);
    return this.named(await detailOf(q, r, { forManager: true, attachmentShown: (name) => logs || shown.has(name) }));
  }

  /** A submission the caller may read as a manager; 404 otherwise, like one that does not exist. */
  private async managed(q: Q, actor: Actor, id: string): Promise<SubmissionRow> {
    const r = await submissionRow(q, id);
    if (!r || !(await this.d.permissions.has(actor.userId, 'submission:read:all', r.activityId, q))) throw notFound('submission');
    return r;
  }

  /** Every submission of an activity, unchecked (see allInActivity): for the CLICS API, decisions §25. */
  allInActivity(activityId: string): Promise<SubmissionDetail[]> {
    return this.d.tx.read((q) => allInActivity(q, activityId));
  }
  /** One submission as allInActivity gives it, unchecked (the CLICS event feed); undefined if not the activity's. */
  oneInActivity(activityId: string, submissionId: string): Promise<SubmissionDetail | undefined> {
    return this.d.tx.read((q) => oneInActivity(q, activityId, submissionId));
  }

  async get(actor: Actor, id: string): Promise<SubmissionDetail> {
    return this.d.tx.read(async (q) => this.managerDetail(q, actor, await this.managed(q, actor, id)));
  }

  /** Filters go into the SQL, so `total` counts what the filters let through (decisions §2). */
  async list(actor: Actor, query: ListQuery): Promise<Page<SubmissionSummary>> {
    const { page, pageSize } = clampPaging(query);
    const scope = await this.readableActivities(actor.userId);
    if (scope.only && !scope.only.length) return { items: [], total: 0, page, pageSize };
    const where = listFilter(query, scope);
    const { total, rows } = await this.d.tx.read(async (q) => ({
      total: await countSubmissions(q, where, !!query.search),
      rows: await this.newestFirst(q, where, page, pageSize),
    }));
    return { items: rows.map((r) => this.named(toSummary(r))), total, page, pageSize };
  }

  /**
   * The activities where a user holds submission:read:all: every one but those they stood down in
   * when a system grant holds it, else those whose grant does.
   */
  private async readableActivities(userId: string): Promise<{ only?: string[]; except: string[] }> {
    const key = 'submission:read:all';
    const may = await this.d.permissions.of(userId);
    const memberships = may.memberships();
    if (may.has(key, null)) return { except: memberships.filter((id) => !may.has(key, id)) };
    return { only: memberships.filter((id) => may.has(key, id)), except: [] };
  }

  async rejudge(actor: Actor, id: string): Promise<SubmissionSummary> {
    const row = await this.d.tx.write(async (q, out) => {
      const r = await this.managed(q, actor, id);
      await this.d.permissions.require(actor, 'submission:rejudge', r.activityId, q);
      await requireResultsOpen(q, r.activityId);
      const assignment = (await assignmentWhere(q, eq(seriesProblems.id, r.seriesProblemId)))!;
      const version = await effectiveVersion(q, assignment);
      if (!version) throw ApiError.of('problem.noVersion', 'The problem has no version to judge against');
      return this.requeueSubmission(q, r.id, version, out);
    });
    return toSummary(row);
  }

  /** Cancels what is unfinished and queues attempt n+1, behind first attempts. */
  private async requeueSubmission(q: Q, submissionId: string, version: { id: string; type: string }, out: Outbox): Promise<SubmissionRow> {
    const now = iso(this.d.clock.now());
    await q
      .update(attempts)
      .set({ state: 'cancelled', finishedAt: now, leaseHash: null, leaseExpiresAt: null })
      .where(and(eq(attempts.submissionId, submissionId), inArray(attempts.state, UNFINISHED)));
    const [last] = await q.select({ n: max(attempts.attempt) }).from(attempts).where(eq(attempts.submissionId, submissionId));
    await this.queueAttempt(q, submissionId, (last?.n ?? 0) + 1, version.id, version.type, 1, now);
    this.judging.queued(out);
    return this.judging.settle(q, submissionId, out, { stateChanged: true, resultChanged: true });
  }

  async rejudgeAssignment(actor: Actor, assignmentId: string): Promise<number> {
    return this.d.tx.write(async (q, out) => {
      const assignment = await assignmentWhere(q, eq(seriesProblems.id, assignmentId));
      const a = assignment ? (await q.select().from(activities).where(eq(activities.id, assignment.activityId)).limit(1))[0] : undefined;
      if (!assignment || !a || !(await canSeeActivity(this.d, actor.userId, a, q))) throw notFound('assignment');
      await this.d.permissions.require(actor, 'submission:rejudge', a.id, q);
      requireNotFinalized(a);
      const version = await effectiveVersion(q, assignment);
      if (!version) throw ApiError.of('problem.noVersion', 'The problem has no version to judge against');
      const ids = await q.select({ id: submissions.id }).from(submissions).where(eq(submissions.seriesProblemId, assignmentId)).orderBy(asc(submissions.submittedAt), asc(submissions.id));
      for (const { id } of ids) await this.requeueSubmission(q, id, version, out);
      return ids.length;
    });
  }

  async cancel(actor: Actor, submissionId: string, attemptId: string): Promise<SubmissionDetail> {
    return this.d.tx.write(async (q, out) => {
      const r = await this.managed(q, actor, submissionId);
      await this.d.permissions.require(actor, 'submission:cancel', r.activityId, q);
      await requireResultsOpen(q, r.activityId);
      const [at] = await q
        .select({ state: attempts.state })
        .from(attempts)
        .where(and(eq(attempts.id, attemptId), eq(attempts.submissionId, submissionId)))
        .limit(1);
      if (!at) throw notFound('attempt');
      if (at.state !== 'queued' && at.state !== 'running') throw ApiError.of('attempt.finished', `The attempt is ${at.state} already`);
      // the lease goes with it: the runner's next call about the job is refused as stale
      await q.update(attempts).set({ state: 'cancelled', finishedAt: iso(this.d.clock.now()), leaseHash: null, leaseExpiresAt: null }).where(eq(attempts.id, attemptId));
      await this.judging.settle(q, submissionId, out, { stateChanged: true, resultChanged: true });
      return this.managerDetail(q, actor, (await submissionRow(q, submissionId))!);
    });
  }

  async setExcluded(actor: Actor, id: string, body: { excluded: boolean; reason?: string }): Promise<SubmissionDetail> {
    return this.d.tx.write(async (q, out) => {
      const r = await this.managed(q, actor, id);
      await this.d.permissions.require(actor, 'submission:exclude', r.activityId, q);
      await requireResultsOpen(q, r.activityId);
      if (body.excluded) {
        await q
          .update(submissions)
          .set({ excluded: true, excludedAt: r.excludedAt ?? iso(this.d.clock.now()), excludedBy: actor.userId, exclusionReason: body.reason || null })
          .where(eq(submissions.id, id));
      } else {
        await q.update(submissions).set({ excluded: false, excludedAt: null, excludedBy: null, exclusionReason: null }).where(eq(submissions.id, id));
      }
      await this.judging.settle(q, id, out, { stateChanged: false, resultChanged: true });
      return this.managerDetail(q, actor, (await submissionRow(q, id))!);
    });
  }

  // ---- files ----

  /**
   * Submission files: their author (the uploader) and holders of submission:source:read:all in the
   * activity. Attempt files: holders of result:log:read:all, and the author where the activity shows
   * participants that attachment. The attachments are read only when no source use lets the caller in.
   */
  private mayReadFile(userId: string, fileId: string): Promise<boolean> {
    return this.d.tx.read(async (q) => {
      const may = await this.d.permissions.of(userId, q);
      if ((await fileAsSource(q, fileId)).some((s) => may.has('submission:source:read:all', s.activityId))) return true;
      for (const f of await fileAsAttachment(q, fileId)) {
        if (may.has('result:log:read:all', f.activityId)) return true;
        if (f.userId !== userId || !may.has('result:read:own', f.activityId)) continue;
        const a = await findActivity(q, f.activityId);
        if (a && participantAttachments(a).has(f.name)) return true;
      }
      return false;
    });
  }
}

/** How many submissions a user made to an assignment. */
async function countOwn(q: Q, userId: string, assignmentId: string): Promise<number> {
  const [row] = await q
    .select({ n: count() })
    .from(submissions)
    .where(and(eq(submissions.userId, userId), eq(submissions.seriesProblemId, assignmentId)));
  return row?.n ?? 0;
}

/** The pinned version, else the problem's newest, with the problem's type. */
async function effectiveVersion(q: Q, a: Pick<Assignment, 'problemId' | 'pinnedVersionId'>): Promise<{ id: string; type: string } | undefined> {
  const [v] = await q
    .select({ id: problemVersions.id, type: problems.type })
    .from(problemVersions)
    .innerJoin(problems, eq(problems.id, problemVersions.problemId))
    .where(a.pinnedVersionId ? eq(problemVersions.id, a.pinnedVersionId) : eq(problemVersions.problemId, a.problemId))
    .orderBy(desc(problemVersions.version))
    .limit(1);
  return v;
}

/**
 * The attachment names an activity shows participants (decisions §6): those it sets to
 * `participant`, and the compiler's output (`compile`) unless it sets that one otherwise; any
 * other is for managers only.
 */
function participantAttachments(a: ActivityRow): Set<string> {
  const shown = new Set(a.attachmentVisibility.filter((v) => v.visibility === 'participant').map((v) => v.name));
  if (!a.attachmentVisibility.some((v) => v.name === 'compile')) shown.add('compile');
  return shown;
}

/** Whether an address is inside one of the series' networks; no rules at all lets nobody in. */
export function addressAllowed(address: string, rules: readonly { network: string }[]): boolean {
  const list = new BlockList();
  for (const r of rules) {
    const [net, bits] = r.network.split('/');
    const type = isIPv6(net!) ? 'ipv6' : 'ipv4';
    try {
      if (bits === undefined) list.addAddress(net!, type);
      else list.addSubnet(net!, Number(bits), type);
    } catch {
      // a rule the schema let through but the address parser refuses matches nothing
    }
  }
  return list.check(address, isIPv6(address) ? 'ipv6' : 'ipv4');
}
