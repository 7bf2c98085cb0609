import { clampPaging, type Page, type SubmissionDetail, type SubmissionSummary, type SubmissionsQuery } from '@judge/contract';
import type { z } from 'zod';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { BlockList, isIPv6 } from 'node:net';
import { eq } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import { series as seriesTable } from '../../db/schema.js';
import type { Outbox } from '../../db/transactor.js';
import { ApiError, notFound } from '@judge/contract';
import { languageName, languageRefusal, submissionLanguage, type LanguageLimits } from '../../languages.js';
import type { Deps } from '../../services.js';
import { iso, newId, statements } from '../../util.js';
import { canManage, canSeeActivity, readActivity, visibleActivity, type ActivityRow } from '../policy/index.js';
import type { FilesService } from '../files/index.js';
import { judgeableLanguages, requiredTags } from '../runners/index.js';
import { acceptsSubmissions, problemsVisible } from '../series/index.js';
import { listFilter } from './queries.js';
import { DetailReader, SUBMISSION_SELECT, toSummary, type SubmissionRow } from './views.js';

type ListQuery = z.output<typeof SubmissionsQuery>;

interface Assignment {
  id: string;
  seriesId: string;
  problemId: string;
  pinnedVersionId: string | null;
  maxUploadBytes: number | null;
  maxAttachments: number | null;
  maxSubmissions: number | null;
  /** JSON text; read only where submitting needs it */
  config?: string | null;
}

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

const UNFINISHED = "('queued', 'running')";

/**
 * What submitting, rejudging and exclusion ask of judging; the judging module answers it (app.ts
 * wires it in), so submissions never reach into jobs or outcomes.
 */
export interface SubmissionJudging {
  /** Re-derives a submission from its attempts and tells who must know, inside the caller's transaction. */
  settle(submissionId: string, out: Outbox, opts: { stateChanged: boolean; resultChanged: boolean }): SubmissionRow;
  /** An attempt was queued: waiting runners look again once the caller's transaction commits. */
  queued(out: Outbox): void;
}

/**
 * Submissions (decisions §7, §9): a participant's submit with its refusals in order, their own list
 * and detail, and the managers' side: the filtered list, detail, rejudge (a new attempt), cancel,
 * exclusion, and the rejudge of a whole assignment.
 */
export class SubmissionsService {
  private readonly q;
  private readonly details: DetailReader;

  constructor(
    private readonly d: Deps,
    private readonly files: FilesService,
    private readonly judging: SubmissionJudging,
  ) {
    this.q = statements(d.sqlite);
    this.details = new DetailReader(d.sqlite);
    files.addReadRule((actor, fileId) => this.mayReadFile(actor.userId, fileId));
  }

  private row(id: string): SubmissionRow | undefined {
    return this.q<[string], SubmissionRow>(`${SUBMISSION_SELECT} WHERE s.id = ?`).get(id);
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
    if (!this.d.permissions.has(actor.userId, 'activity:read', a.id)) throw notFound('activity');
    if (a.archivedAt) throw ApiError.of('activity.archived', 'The activity is archived: it takes no submissions');
    const found = this.q<[string, string], Assignment>(
      `SELECT id, series_id AS seriesId, problem_id AS problemId, pinned_version_id AS pinnedVersionId,
              max_upload_bytes AS maxUploadBytes, max_attachments AS maxAttachments, max_submissions AS maxSubmissions, config
       FROM series_problems WHERE activity_id = ? AND slug_key = ?`,
    ).get(a.id, problemSlug.toLowerCase());
    const series = found ? this.d.db.select().from(seriesTable).where(eq(seriesTable.id, found.seriesId)).get() : undefined;
    const manages = canManage(this.d, actor.userId, a.id);
    if (!found || !series || !(manages || problemsVisible(series, a))) throw notFound('problem');
    this.d.permissions.require(actor, 'submission:create', a.id);
    if (forSampleRun && a.modules.sampleRuns === false) throw ApiError.of('sampleRuns.disabled', 'Running code on the samples is switched off in this activity');
    if (!manages) {
      if (!acceptsSubmissions(series)) throw ApiError.of('series.closed', series.pausedAt ? 'The series is paused' : 'The series is not open for submissions');
      if (series.restrictionsEnabled && !addressAllowed(address, series.addressRules)) {
        throw ApiError.of('series.address', `Submissions to this series are not taken from ${address}`);
      }
    }
    const maxSubmissions = manages || forSampleRun ? null : (found.maxSubmissions ?? a.maxSubmissionsPerProblem);
    if (maxSubmissions !== null && this.countOwn(actor.userId, found.id) >= maxSubmissions) {
      throw ApiError.of('submission.limit', `The limit of ${maxSubmissions} submissions to this problem is reached`);
    }
    const version = this.effectiveVersion(found);
    if (!version) throw ApiError.of('problem.noVersion', 'The problem has no version to judge against yet');
    return {
      activity: a,
      assignment: found,
      versionId: version.id,
      problemType: version.type,
      maxUploadBytes: found.maxUploadBytes ?? a.maxUploadBytes,
      maxAttachments: found.maxAttachments ?? a.maxAttachments,
      maxSubmissions,
      runnerTags: requiredTags(series.runnerTags, a.runnerTags),
    };
  }

  /**
   * Refuses (422 `submission.language`) a submission no runner would judge: its file name and props
   * give no language, the table lacks it, the assignment does not allow it, or no approved runner
   * matching the assignment reported it. Managers testing are refused alike: such a test judges
   * nothing. Needs only the file names and props, so nothing is stored yet.
   */
  refuseUnjudgeable(plan: SubmitPlan, fileNames: readonly string[], props: Record<string, unknown> | undefined): void {
    const config = plan.assignment.config ? (JSON.parse(plan.assignment.config) as Record<string, unknown>) : null;
    const limits: LanguageLimits = { config, judgeable: judgeableLanguages(this.d.db, plan.runnerTags) };
    const refusal = languageRefusal(this.d.config.languages, fileNames, props, limits);
    if (refusal) throw refusal;
  }

  private countOwn(userId: string, assignmentId: string): number {
    return this.q<[string, string], { n: number }>('SELECT count(*) AS n FROM submissions WHERE user_id = ? AND series_problem_id = ?').get(userId, assignmentId)!.n;
  }

  /** The pinned version, else the problem's newest, with the problem's type. */
  private effectiveVersion(a: Pick<Assignment, 'problemId' | 'pinnedVersionId'>): { id: string; type: string } | undefined {
    if (a.pinnedVersionId) {
      return this.q<[string], { id: string; type: string }>('SELECT pv.id, p.type FROM problem_versions pv JOIN problems p ON p.id = pv.problem_id WHERE pv.id = ?').get(a.pinnedVersionId);
    }
    return this.q<[string], { id: string; type: string }>(
      'SELECT pv.id, p.type FROM problem_versions pv JOIN problems p ON p.id = pv.problem_id WHERE pv.problem_id = ? ORDER BY pv.version DESC LIMIT 1',
    ).get(a.problemId);
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
    const row = this.d.tx.run((out) => {
      // the limit again, inside the transaction: two submissions racing for the last one cannot both pass
      if (plan.maxSubmissions !== null && this.countOwn(actor.userId, plan.assignment.id) >= plan.maxSubmissions) {
        throw ApiError.of('submission.limit', `The limit of ${plan.maxSubmissions} submissions to this problem is reached`);
      }
      const id = newId();
      const now = iso(this.d.clock.now());
      this.q(
        `INSERT INTO submissions (id, activity_id, series_id, series_problem_id, problem_version_id, user_id, submitted_at, props, state, attempts, ip_address, session_id, device_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', 1, ?, ?, ?)`,
      ).run(
        id,
        plan.activity.id,
        plan.assignment.seriesId,
        plan.assignment.id,
        plan.versionId,
        actor.userId,
        now,
        input.props ? JSON.stringify(input.props) : null,
        input.ipAddress,
        actor.sessionId,
        input.deviceId ?? null,
      );
      const addFile = this.q('INSERT INTO submission_files (submission_id, name, file_name, language, file_id) VALUES (?, ?, ?, ?, ?)');
      metas.forEach((meta, i) => addFile.run(id, storedName(i), input.uploads[i]!.name, language, meta.id));
      this.queueAttempt(id, 1, plan.versionId, plan.problemType, 0, now);
      this.judging.queued(out);
      return this.judging.settle(id, out, { stateChanged: true, resultChanged: true });
    });
    return toSummary(row);
  }

  private queueAttempt(submissionId: string, attempt: number, versionId: string, problemType: string, priority: number, now: string): void {
    this.q('INSERT INTO attempts (id, submission_id, attempt, state, priority, problem_version_id, problem_type, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
      newId(),
      submissionId,
      attempt,
      'queued',
      priority,
      versionId,
      problemType,
      now,
    );
  }

  // ---- the participant's own ----

  private async browsing(actor: Actor, idOrSlug: string): Promise<ActivityRow> {
    const a = await visibleActivity(this.d, actor, idOrSlug);
    if (!this.d.permissions.has(actor.userId, 'activity:read', a.id)) throw notFound('activity');
    return a;
  }

  async listOwn(actor: Actor, idOrSlug: string, query: { page?: number; pageSize?: number; seriesProblemId?: string }): Promise<Page<SubmissionSummary>> {
    const a = await this.browsing(actor, idOrSlug);
    this.d.permissions.require(actor, 'submission:read:own', a.id);
    const { page, pageSize } = clampPaging(query);
    const where = 's.activity_id = ? AND s.user_id = ?' + (query.seriesProblemId ? ' AND s.series_problem_id = ?' : '');
    const args: unknown[] = [a.id, actor.userId, ...(query.seriesProblemId ? [query.seriesProblemId] : [])];
    const total = (this.d.sqlite.prepare(`SELECT count(*) AS n FROM submissions s WHERE ${where}`).get(...args) as { n: number }).n;
    const rows = this.d.sqlite.prepare(`${SUBMISSION_SELECT} WHERE ${where} ORDER BY s.submitted_at DESC, s.id DESC LIMIT ? OFFSET ?`).all(...args, pageSize, (page - 1) * pageSize) as SubmissionRow[];
    const ownResults = this.d.permissions.has(actor.userId, 'result:read:own', a.id);
    return { items: rows.map((r) => this.named(this.forAuthor(toSummary(r), ownResults))), total, page, pageSize };
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
    const a = await this.browsing(actor, idOrSlug);
    const r = this.row(id);
    if (!r || r.activityId !== a.id) throw notFound('submission');
    const readsAll = this.d.permissions.has(actor.userId, 'submission:read:all', a.id);
    if (r.userId === actor.userId ? !this.d.permissions.has(actor.userId, 'submission:read:own', a.id) && !readsAll : !readsAll) throw notFound('submission');
    if (readsAll) return this.managerDetail(actor, r);
    const shown = participantAttachments(a);
    const detail = this.details.detail(r, { forManager: false, attachmentShown: (name) => shown.has(name) });
    return this.named(this.forAuthor(detail, this.d.permissions.has(actor.userId, 'result:read:own', a.id)));
  }

  // ---- the managers' side ----

  private async managerDetail(actor: Actor, r: SubmissionRow): Promise<SubmissionDetail> {
    const logs = this.d.permissions.has(actor.userId, 'result:log:read:all', r.activityId);
    const a = (await readActivity(this.d, r.activityId))!;
    const shown = participantAttachments(a);
    return this.named(this.details.detail(r, { forManager: true, attachmentShown: (name) => logs || shown.has(name) }));
  }

  /** A submission the caller may read as a manager; 404 otherwise, like one that does not exist. */
  private managed(actor: Actor, id: string): SubmissionRow {
    const r = this.row(id);
    if (!r || !this.d.permissions.has(actor.userId, 'submission:read:all', r.activityId)) throw notFound('submission');
    return r;
  }

  async get(actor: Actor, id: string): Promise<SubmissionDetail> {
    return this.managerDetail(actor, this.managed(actor, id));
  }

  /** Filters go into the SQL, so `total` counts what the filters let through (decisions §2). */
  list(actor: Actor, query: ListQuery): Page<SubmissionSummary> {
    const { page, pageSize } = clampPaging(query);
    const scope = this.readableActivities(actor.userId);
    if (scope.only && !scope.only.length) return { items: [], total: 0, page, pageSize };
    const { filter, args, from } = listFilter(query, scope);
    const total = (this.d.sqlite.prepare(`SELECT count(*) AS n ${from}${filter}`).get(...args) as { n: number }).n;
    const rows = this.d.sqlite.prepare(`${SUBMISSION_SELECT}${filter} ORDER BY s.submitted_at DESC, s.id DESC LIMIT ? OFFSET ?`).all(...args, pageSize, (page - 1) * pageSize) as SubmissionRow[];
    return { items: rows.map((r) => this.named(toSummary(r))), total, page, pageSize };
  }

  /**
   * The activities where a user holds submission:read:all: every one but those they stood down in
   * when a system grant holds it, else those whose grant does.
   */
  private readableActivities(userId: string): { only?: string[]; except: string[] } {
    const key = 'submission:read:all';
    const memberships = this.d.permissions.memberships(userId);
    if (this.d.permissions.has(userId, key, null)) return { except: memberships.filter((id) => !this.d.permissions.has(userId, key, id)) };
    return { only: memberships.filter((id) => this.d.permissions.has(userId, key, id)), except: [] };
  }

  rejudge(actor: Actor, id: string): SubmissionSummary {
    const r = this.managed(actor, id);
    this.d.permissions.require(actor, 'submission:rejudge', r.activityId);
    const row = this.d.tx.run((out) => {
      const assignment = this.q<[string], Assignment>(
        'SELECT id, series_id AS seriesId, problem_id AS problemId, pinned_version_id AS pinnedVersionId, max_upload_bytes AS maxUploadBytes, max_attachments AS maxAttachments, max_submissions AS maxSubmissions FROM series_problems WHERE id = ?',
      ).get(r.seriesProblemId)!;
      const version = this.effectiveVersion(assignment);
      if (!version) throw ApiError.of('problem.noVersion', 'The problem has no version to judge against');
      return this.requeueSubmission(r.id, version, out);
    });
    return toSummary(row);
  }

  /** Cancels what is unfinished and queues attempt n+1, behind first attempts. */
  private requeueSubmission(submissionId: string, version: { id: string; type: string }, out: Outbox): SubmissionRow {
    const now = iso(this.d.clock.now());
    this.q(`UPDATE attempts SET state = 'cancelled', finished_at = ?, lease_hash = NULL, lease_expires_at = NULL WHERE submission_id = ? AND state IN ${UNFINISHED}`).run(
      now,
      submissionId,
    );
    const last = this.q<[string], { n: number }>('SELECT max(attempt) AS n FROM attempts WHERE submission_id = ?').get(submissionId)!.n ?? 0;
    this.queueAttempt(submissionId, last + 1, version.id, version.type, 1, now);
    this.judging.queued(out);
    return this.judging.settle(submissionId, out, { stateChanged: true, resultChanged: true });
  }

  async rejudgeAssignment(actor: Actor, assignmentId: string): Promise<number> {
    const assignment = this.q<[string], Assignment & { activityId: string }>(
      'SELECT id, activity_id AS activityId, series_id AS seriesId, problem_id AS problemId, pinned_version_id AS pinnedVersionId, max_upload_bytes AS maxUploadBytes, max_attachments AS maxAttachments, max_submissions AS maxSubmissions FROM series_problems WHERE id = ?',
    ).get(assignmentId);
    const a = assignment ? await readActivity(this.d, assignment.activityId) : undefined;
    if (!assignment || !a || !canSeeActivity(this.d, actor.userId, a)) throw notFound('assignment');
    this.d.permissions.require(actor, 'submission:rejudge', a.id);
    return this.d.tx.run((out) => {
      const version = this.effectiveVersion(assignment);
      if (!version) throw ApiError.of('problem.noVersion', 'The problem has no version to judge against');
      const ids = this.q<[string], { id: string }>('SELECT id FROM submissions WHERE series_problem_id = ? ORDER BY submitted_at, id').all(assignmentId);
      for (const { id } of ids) this.requeueSubmission(id, version, out);
      return ids.length;
    });
  }

  async cancel(actor: Actor, submissionId: string, attemptId: string): Promise<SubmissionDetail> {
    const r = this.managed(actor, submissionId);
    this.d.permissions.require(actor, 'submission:cancel', r.activityId);
    this.d.tx.run((out) => {
      const at = this.q<[string, string], { state: string }>('SELECT state FROM attempts WHERE id = ? AND submission_id = ?').get(attemptId, submissionId);
      if (!at) throw notFound('attempt');
      if (at.state !== 'queued' && at.state !== 'running') throw ApiError.of('attempt.finished', `The attempt is ${at.state} already`);
      // the lease goes with it: the runner's next call about the job is refused as stale
      this.q("UPDATE attempts SET state = 'cancelled', finished_at = ?, lease_hash = NULL, lease_expires_at = NULL WHERE id = ?").run(iso(this.d.clock.now()), attemptId);
      this.judging.settle(submissionId, out, { stateChanged: true, resultChanged: true });
    });
    return this.managerDetail(actor, this.row(submissionId)!);
  }

  async setExcluded(actor: Actor, id: string, body: { excluded: boolean; reason?: string }): Promise<SubmissionDetail> {
    const r = this.managed(actor, id);
    this.d.permissions.require(actor, 'submission:exclude', r.activityId);
    this.d.tx.run((out) => {
      if (body.excluded) {
        this.q('UPDATE submissions SET excluded = 1, excluded_at = coalesce(excluded_at, ?), excluded_by = ?, exclusion_reason = ? WHERE id = ?').run(
          iso(this.d.clock.now()),
          actor.userId,
          body.reason || null,
          id,
        );
      } else {
        this.q('UPDATE submissions SET excluded = 0, excluded_at = NULL, excluded_by = NULL, exclusion_reason = NULL WHERE id = ?').run(id);
      }
      this.judging.settle(id, out, { stateChanged: false, resultChanged: true });
    });
    return this.managerDetail(actor, this.row(id)!);
  }

  // ---- files ----

  /**
   * Submission files: their author (the uploader) and holders of submission:source:read:all in the
   * activity. Attempt files: holders of result:log:read:all, and the author where the activity shows
   * participants that attachment.
   */
  private async mayReadFile(userId: string, fileId: string): Promise<boolean> {
    const sources = this.q<[string], { activityId: string }>(
      'SELECT s.activity_id AS activityId FROM submission_files sf JOIN submissions s ON s.id = sf.submission_id WHERE sf.file_id = ?',
    ).all(fileId);
    if (sources.some((s) => this.d.permissions.has(userId, 'submission:source:read:all', s.activityId))) return true;
    const attached = this.q<[string], { activityId: string; userId: string; name: string }>(
      `SELECT s.activity_id AS activityId, s.user_id AS userId, af.name FROM attempt_files af JOIN attempts a ON a.id = af.attempt_id
       JOIN submissions s ON s.id = a.submission_id WHERE af.file_id = ?`,
    ).all(fileId);
    for (const f of attached) {
      if (this.d.permissions.has(userId, 'result:log:read:all', f.activityId)) return true;
      if (f.userId !== userId || !this.d.permissions.has(userId, 'result:read:own', f.activityId)) continue;
      const a = await readActivity(this.d, f.activityId);
      if (a && participantAttachments(a).has(f.name)) return true;
    }
    return false;
  }
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
