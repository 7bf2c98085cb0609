import { ApiError, notFound, SAMPLE_RUN_KEEP_SECONDS, type SampleResult, type SampleRun, type SampleRunRequest } from '@judge/contract';
import type { Actor } from '../../auth/permissions.js';
import { submissionLanguage } from '../../languages.js';
import type { Deps } from '../../services.js';
import { compact, iso, newId, statements } from '../../util.js';
import type { SampleRunQueue } from '../judging/index.js';
import type { SubmissionsService } from '../submissions/index.js';

interface RunRow {
  id: string;
  userId: string;
  activityId: string;
  problemSlug: string;
  state: SampleRun['state'];
  language: string | null;
  createdAt: string;
  claimedAt: string | null;
  finishedAt: string | null;
  verdict: string | null;
  compileOutput: string | null;
  results: string | null;
  failureReason: string | null;
}

const RUN_SELECT = `SELECT r.id, r.user_id AS userId, r.activity_id AS activityId, sp.slug AS problemSlug, r.state, r.language, r.created_at AS createdAt,
  r.claimed_at AS claimedAt, r.finished_at AS finishedAt, r.verdict, r.compile_output AS compileOutput, r.results, r.failure_reason AS failureReason
  FROM sample_runs r JOIN series_problems sp ON sp.id = r.series_problem_id`;

/**
 * A participant's sample runs (docs/web-pages.md "Run on samples"): the submit checks but the limit
 * (SubmissionsService.plan), the activity's sampleRuns switch, a rate per participant (setting
 * sampleRuns.*), and one run at a time: a new run cancels the author's unfinished one. Only the
 * author reads a run, until it expires.
 */
export class SampleRunsService {
  private readonly q;

  constructor(
    private readonly d: Deps,
    private readonly submissions: Pick<SubmissionsService, 'plan' | 'refuseUnjudgeable'>,
    private readonly queue: Pick<SampleRunQueue, 'wake'>,
  ) {
    this.q = statements(d.sqlite);
  }

  async create(actor: Actor, idOrSlug: string, problemSlug: string, address: string, body: SampleRunRequest): Promise<SampleRun> {
    const plan = await this.submissions.plan(actor, idOrSlug, problemSlug, address, true);
    const samples = this.q<[string], { n: number | null }>("SELECT json_extract(package_info, '$.sampleCount') AS n FROM problem_versions WHERE id = ?").get(plan.versionId);
    if (!samples?.n) throw ApiError.of('sampleRun.noSamples', 'The problem has no sample tests to run on');
    if (body.files.length > plan.maxAttachments) {
      throw ApiError.of('file.tooMany', `This problem takes at most ${plan.maxAttachments} file${plan.maxAttachments === 1 ? '' : 's'}; the run has ${body.files.length}`, {
        files: [`at most ${plan.maxAttachments}`],
      });
    }
    const names = new Set<string>();
    for (const f of body.files) {
      if (names.has(f.name)) throw ApiError.of('validation_failed', `Two files are named ${f.name}`, { files: ['file names must differ'] });
      names.add(f.name);
      if (Buffer.byteLength(f.code, 'utf8') > plan.maxUploadBytes) throw ApiError.of('payload_too_large', `${f.name} is larger than this problem's limit of ${plan.maxUploadBytes} bytes`);
    }
    const props = body.language ? { language: body.language } : undefined;
    this.submissions.refuseUnjudgeable(plan, [...names], props);
    const language = submissionLanguage(this.d.config.languages, [...names], props) ?? null;
    const now = this.d.clock.now();
    const run = this.d.tx.run((out) => {
      this.refuseOverRate(actor.userId, now);
      // one run at a time: the author's unfinished run is replaced (a runner holding it sees a stale lease and stops)
      this.q("UPDATE sample_runs SET state = 'cancelled', finished_at = ?, lease_hash = NULL, lease_expires_at = NULL WHERE user_id = ? AND state IN ('queued', 'running')").run(
        iso(now),
        actor.userId,
      );
      const id = newId();
      this.q(
        `INSERT INTO sample_runs (id, user_id, activity_id, series_problem_id, problem_version_id, problem_type, sources, language, state, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?)`,
      ).run(id, actor.userId, plan.activity.id, plan.assignment.id, plan.versionId, plan.problemType, JSON.stringify(body.files.map((f) => ({ name: f.name, code: f.code.replace(/\r\n/g, '\n') }))), language, iso(now));
      out.then(() => this.queue.wake());
      return this.row(id)!;
    });
    this.d.log.info({ sampleRun: run.id, user: actor.userId, activity: plan.activity.id, problem: problemSlug }, 'sample run queued');
    return this.view(run);
  }

  /** 429 with Retry-After once the author started `perWindow` runs within the window. */
  private refuseOverRate(userId: string, now: Date): void {
    const { perWindow, windowSeconds } = this.d.config.sampleRuns;
    const since = iso(new Date(now.getTime() - windowSeconds * 1000));
    const recent = this.q<[string, string], { createdAt: string }>('SELECT created_at AS createdAt FROM sample_runs WHERE user_id = ? AND created_at > ? ORDER BY created_at').all(userId, since);
    if (recent.length < perWindow) return;
    const oldest = recent[recent.length - perWindow];
    const free = oldest ? new Date(oldest.createdAt).getTime() + windowSeconds * 1000 : now.getTime() + windowSeconds * 1000;
    const seconds = Math.max(1, Math.ceil((free - now.getTime()) / 1000));
    throw ApiError.of('rate_limited', `At most ${perWindow} sample runs per ${windowSeconds} s; try again in ${seconds} s`, undefined, { 'Retry-After': String(seconds) });
  }

  /** The author's run; anyone else's, and an expired one, is 404. */
  get(actor: Actor, id: string): SampleRun {
    const r = this.row(id);
    if (!r || r.userId !== actor.userId) throw notFound('sample run');
    return this.view(r);
  }

  private row(id: string): RunRow | undefined {
    return this.q<[string], RunRow>(`${RUN_SELECT} WHERE r.id = ?`).get(id);
  }

  private view(r: RunRow): SampleRun {
    return compact({
      id: r.id,
      activityId: r.activityId,
      problemSlug: r.problemSlug,
      state: r.state,
      language: r.language,
      createdAt: r.createdAt,
      startedAt: r.claimedAt,
      finishedAt: r.finishedAt,
      verdict: r.verdict,
      compileOutput: r.compileOutput,
      samples: r.results ? (JSON.parse(r.results) as SampleResult[]) : [],
      failureReason: r.failureReason,
      expiresAt: iso(new Date(new Date(r.createdAt).getTime() + SAMPLE_RUN_KEEP_SECONDS * 1000)),
    }) as SampleRun;
  }
}
