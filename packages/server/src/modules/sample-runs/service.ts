import { ApiError, notFound, SAMPLE_RUN_KEEP_SECONDS, type SampleResult, type SampleRun, type SampleRunRequest } from '@judge/contract';
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import { problemVersions, sampleRuns, seriesProblems } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import { submissionLanguage } from '../../languages.js';
import type { Deps } from '../../services.js';
import { compact, iso, newId } from '../../util.js';
import type { SampleRunQueue } from '../judging/index.js';
import type { SubmissionsService } from '../submissions/index.js';

type RunRow = NonNullable<Awaited<ReturnType<typeof runRow>>>;

async function runRow(q: Q, id: string) {
  const [r] = await q
    .select({
      id: sampleRuns.id,
      userId: sampleRuns.userId,
      activityId: sampleRuns.activityId,
      problemSlug: seriesProblems.slug,
      state: sampleRuns.state,
      language: sampleRuns.language,
      createdAt: sampleRuns.createdAt,
      claimedAt: sampleRuns.claimedAt,
      finishedAt: sampleRuns.finishedAt,
      verdict: sampleRuns.verdict,
      compileOutput: sampleRuns.compileOutput,
      results: sampleRuns.results,
      failureReason: sampleRuns.failureReason,
    })
    .from(sampleRuns)
    .innerJoin(seriesProblems, eq(seriesProblems.id, sampleRuns.seriesProblemId))
    .where(eq(sampleRuns.id, id))
    .limit(1);
  return r;
}

/**
 * A participant's sample runs (docs/web-pages.md "Run on samples"): the submit checks but the limit
 * (SubmissionsService.plan), the activity's sampleRuns switch, a rate per participant (setting
 * sampleRuns.*), and one run at a time: a new run cancels the author's unfinished one. Only the
 * author reads a run, until it expires.
 *
 * What keeps it safe on PostgreSQL: the rate check, the cancelling of the author's unfinished run
 * and the insert are one SERIALIZABLE write, retried by the engine when two runs of one author race.
 */
export class SampleRunsService {
  constructor(
    private readonly d: Deps,
    private readonly submissions: Pick<SubmissionsService, 'plan' | 'refuseUnjudgeable'>,
    private readonly queue: Pick<SampleRunQueue, 'wake'>,
  ) {}

  async create(actor: Actor, idOrSlug: string, problemSlug: string, address: string, body: SampleRunRequest): Promise<SampleRun> {
    const plan = await this.submissions.plan(actor, idOrSlug, problemSlug, address, true);
    const [version] = await this.d.tx.read((q) => q.select({ info: problemVersions.packageInfo }).from(problemVersions).where(eq(problemVersions.id, plan.versionId)).limit(1));
    if (!version?.info?.sampleCount) throw ApiError.of('sampleRun.noSamples', 'The problem has no sample tests to run on');
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
    const sources = JSON.stringify(body.files.map((f) => ({ name: f.name, code: f.code.replace(/\r\n/g, '\n') })));
    const run = await this.d.tx.write(async (q, out) => {
      await this.refuseOverRate(q, actor.userId, now);
      // one run at a time: the author's unfinished run is replaced (a runner holding it sees a stale lease and stops)
      await q
        .update(sampleRuns)
        .set({ state: 'cancelled', finishedAt: iso(now), leaseHash: null, leaseExpiresAt: null })
        .where(and(eq(sampleRuns.userId, actor.userId), inArray(sampleRuns.state, ['queued', 'running'])));
      const id = newId();
      await q.insert(sampleRuns).values({
        id,
        userId: actor.userId,
        activityId: plan.activity.id,
        seriesProblemId: plan.assignment.id,
        problemVersionId: plan.versionId,
        problemType: plan.problemType,
        sources,
        language,
        state: 'queued',
        createdAt: iso(now),
      });
      out.then(() => this.queue.wake());
      return (await runRow(q, id))!;
    });
    this.d.log.info({ sampleRun: run.id, user: actor.userId, activity: plan.activity.id, problem: problemSlug }, 'sample run queued');
    return this.view(run);
  }

  /** 429 with Retry-After once the author started `perWindow` runs within the window. */
  private async refuseOverRate(q: Q, userId: string, now: Date): Promise<void> {
    const { perWindow, windowSeconds } = this.d.config.sampleRuns;
    const since = iso(new Date(now.getTime() - windowSeconds * 1000));
    const recent = await q
      .select({ createdAt: sampleRuns.createdAt })
      .from(sampleRuns)
      .where(and(eq(sampleRuns.userId, userId), gt(sampleRuns.createdAt, since)))
      .orderBy(asc(sampleRuns.createdAt));
    if (recent.length < perWindow) return;
    const oldest = recent[recent.length - perWindow];
    const free = oldest ? new Date(oldest.createdAt).getTime() + windowSeconds * 1000 : now.getTime() + windowSeconds * 1000;
    const seconds = Math.max(1, Math.ceil((free - now.getTime()) / 1000));
    throw ApiError.of('rate_limited', `At most ${perWindow} sample runs per ${windowSeconds} s; try again in ${seconds} s`, undefined, { 'Retry-After': String(seconds) });
  }

  /** The author's run; anyone else's, and an expired one, is 404. */
  async get(actor: Actor, id: string): Promise<SampleRun> {
    const r = await this.d.tx.read((q) => runRow(q, id));
    if (!r || r.userId !== actor.userId) throw notFound('sample run');
    return this.view(r);
  }

  private view(r: RunRow): SampleRun {
    return compact({
      id: r.id,
      activityId: r.activityId,
      problemSlug: r.problemSlug,
      state: r.state as SampleRun['state'],
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
