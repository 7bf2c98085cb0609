import type { ClaimedJob } from '@judge/contract';
import { ApiProblem, RunnerClient, type ClaimedSampleRun, type ClaimedTrial, type HeldJob, type HeldSampleRun, type HeldTrial } from '@judge/sdk';
import type { CompileCache } from './compile/cache.js';
import { judgeSubmission, runTrial, type RunnerLimits } from './judge.js';
import type { LanguageTable } from './languages.js';
import { PackageCache, type CachedPackage } from './problem/cache.js';
import { loadProblem } from './problem/load.js';
import { PackageError, type ProblemSpec } from './problem/types.js';
import { withCancel } from './sandbox/cancel-scope.js';
import type { Sandbox } from './sandbox/sandbox.js';
import type { JudgeInput, SubmissionFileInput } from './judging/types.js';
import { runSamples } from './sample-run.js';
import { StrayErrors } from './stray-errors.js';

/** Problem types this runner judges (decisions §6): what its graders take (graders/registry.ts). */
export { PROBLEM_TYPES } from './graders/registry.js';

/** What the claim of a submission or of a sample run says about judging it. */
interface JudgedClaim {
  problemType: string;
  props?: Record<string, unknown> | null;
  config?: Record<string, unknown> | null;
  maxima?: JudgeInput['maxima'];
  timeLimitSeconds?: number | null;
}

export interface AgentOptions {
  client: RunnerClient;
  sandbox: Sandbox;
  languages: LanguageTable;
  cache: PackageCache;
  /** Compiled submissions kept by the SHA-256 of source, language and compiler; none: every job compiles. */
  compileCache?: CompileCache;
  /** Jobs judged at once (each in its own sandbox slot). */
  slots: number;
  limits?: RunnerLimits;
  /** Lease asked for at each claim and renewal, in seconds. */
  leaseSeconds?: number;
  /** How long a claim waits for work on the server (long poll). */
  waitSeconds?: number;
  /**
   * How often a held lease is renewed while judging, in ms (default 500): a cancelled attempt shows
   * as a stale lease at the next renewal, and its sandbox is stopped then.
   */
  leaseCheckMs?: number;
  runnerVersion: string;
  log: (line: string) => void;
  /**
   * Where errors that escape a judging are caught (main.ts installs its process handlers): the
   * judging they came from fails, the others go on. Default: one of its own, not installed.
   */
  strays?: StrayErrors;
}

export interface AgentStats {
  judged: number;
  failed: number;
  trials: number;
  sampleRuns: number;
}

/** Waits after a failed claim before the next, doubling up to a minute: a server that is down is not hammered. */
const BACKOFF_START_MS = 1000;
const BACKOFF_MAX_MS = 60_000;
/** Renewing this often is what lets a cancel stop the sandbox within a second. */
const LEASE_CHECK_MS = 500;
/** Failed renewals (server unreachable) are logged at most this often. */
const RENEW_LOG_MS = 10_000;

/**
 * The runner's work loop: each slot claims a job (long poll), judges it while renewing its lease,
 * and reports; when no job comes it looks for a trial. `stop()` stops claiming and lets held work
 * finish; `abandon()` releases what is still held, so that another runner takes it at once.
 */
export class Agent {
  readonly stats: AgentStats = { judged: 0, failed: 0, trials: 0, sampleRuns: 0 };
  private stopping = false;
  private readonly held = new Map<string, { kind: 'job' | 'trial' | 'sampleRun'; lease: HeldJob | HeldTrial | HeldSampleRun }>();
  private readonly problems = new Map<string, Promise<ProblemSpec>>();
  private loops: Promise<void>[] = [];
  private readonly leaseSeconds: number;
  private readonly waitSeconds: number;
  private readonly leaseCheckMs: number;
  private readonly strays: StrayErrors;

  constructor(private readonly o: AgentOptions) {
    this.strays = o.strays ?? new StrayErrors(o.log);
    this.leaseSeconds = o.leaseSeconds ?? 120;
    this.waitSeconds = o.waitSeconds ?? 20;
    this.leaseCheckMs = o.leaseCheckMs ?? LEASE_CHECK_MS;
    // the server refuses at submit what no runner can judge: it learns this one's installed languages
    o.client.reportLanguages(o.languages.present().map((l) => l.id));
  }

  start(): void {
    for (let slot = 0; slot < this.o.slots; slot++) this.loops.push(this.loop(slot));
  }

  /** Resolves when every slot has stopped (after stop()). */
  done(): Promise<void> {
    return Promise.all(this.loops).then(() => undefined);
  }

  /** No new claims; held work goes on to its report. */
  stop(): void {
    this.stopping = true;
  }

  get holding(): number {
    return this.held.size;
  }

  /** Gives back everything still held (the runner is going away before it could finish). */
  async abandon(): Promise<void> {
    const held = [...this.held.values()];
    this.held.clear();
    await Promise.all(
      held.map(async (h) => {
        try {
          if (h.kind === 'job') await this.o.client.release(h.lease as HeldJob);
        } catch (e) {
          this.o.log(`could not release a job: ${(e as Error).message}`);
        }
      }),
    );
  }

  private async loop(slot: number): Promise<void> {
    let backoff = BACKOFF_START_MS;
    while (!this.stopping) {
      try {
        // jobs first; the long poll ends early when a sample run waits, which goes next, then a trial
        const job = await this.o.client.claim({ leaseSeconds: this.leaseSeconds, waitSeconds: this.stopping ? 0 : this.waitSeconds, sampleRuns: true });
        if (job) {
          await this.judge(job);
        } else if (!this.stopping) {
          const run = await this.o.client.claimSampleRun({ leaseSeconds: this.leaseSeconds });
          if (run) {
            await this.sampleRun(run);
          } else {
            const trial = await this.o.client.claimTrial({ leaseSeconds: this.leaseSeconds });
            if (trial) await this.trial(trial);
          }
        }
        backoff = BACKOFF_START_MS;
      } catch (e) {
        if (e instanceof ApiProblem && e.code === 'runner.notApproved') {
          this.o.log(`slot ${slot}: the server says this runner is not approved (${e.detail}); stopping`);
          this.stopping = true;
          break;
        }
        this.o.log(`slot ${slot}: ${(e as Error).message}; retrying in ${Math.round(backoff / 1000)} s`);
        await sleep(backoff);
        backoff = Math.min(backoff * 2, BACKOFF_MAX_MS);
      }
    }
  }

  /**
   * Renews a lease every `leaseCheckMs` until `stop` is called (one renewal in flight at a time).
   * When the server says the lease is gone (the attempt was cancelled, or the lease lapsed and went
   * to another runner) `signal` aborts, which kills the sandbox runs of this work (cancel-scope.ts).
   */
  private keepLease(renew: () => Promise<unknown>): { stop(): void; lost(): boolean; signal: AbortSignal } {
    const withdrawn = new AbortController();
    let inFlight = false;
    let lastLog = 0;
    const timer = setInterval(() => {
      if (inFlight || withdrawn.signal.aborted) return;
      inFlight = true;
      renew()
        .catch((e: unknown) => {
          if (e instanceof ApiProblem && (e.code === 'runner.lease.stale' || e.code === 'runner.lease.foreign' || e.code === 'job.state' || e.code === 'trial.state' || e.code === 'sampleRun.state' || e.code === 'not_found')) {
            withdrawn.abort();
          } else if (Date.now() - lastLog > RENEW_LOG_MS) {
            lastLog = Date.now();
            this.o.log(`lease renewal failed: ${(e as Error).message}`);
          }
        })
        .finally(() => (inFlight = false));
    }, this.leaseCheckMs);
    timer.unref();
    return { stop: () => clearInterval(timer), lost: () => withdrawn.signal.aborted, signal: withdrawn.signal };
  }

  /**
   * How a claimed submission or sample run is judged: this runner's sandbox, languages, limits and
   * compile cache, with the claim's problem, files, settings and the server's maxima.
   */
  private judgeInput(claim: JudgedClaim, problem: ProblemSpec, files: SubmissionFileInput[], buildDir: string): JudgeInput {
    return {
      sandbox: this.o.sandbox,
      languages: this.o.languages,
      problem,
      problemType: claim.problemType,
      files,
      props: claim.props ?? null,
      config: claim.config ?? null,
      ...(this.o.limits ? { limits: this.o.limits } : {}),
      ...(claim.maxima ? { maxima: claim.maxima } : {}),
      ...(claim.timeLimitSeconds ? { computedTimeLimitSeconds: claim.timeLimitSeconds } : {}),
      buildDir,
      ...(this.o.compileCache ? { compileCache: this.o.compileCache } : {}),
    };
  }

  private problemOf(pkg: CachedPackage): Promise<ProblemSpec> {
    let p = this.problems.get(pkg.sha256);
    if (!p) {
      p = loadProblem(pkg.dir, this.o.languages);
      p.catch(() => this.problems.delete(pkg.sha256));
      this.problems.set(pkg.sha256, p);
    }
    return p;
  }

  private async judge(job: ClaimedJob): Promise<void> {
    const { client } = this.o;
    this.held.set(job.jobId, { kind: 'job', lease: job });
    const lease = this.keepLease(() => client.renew(job, this.leaseSeconds));
    let pkg: CachedPackage | undefined;
    const started = Date.now();
    try {
      if (!job.packageFileId) throw new PackageError('the problem version has no package to judge with');
      pkg = await this.o.cache.acquire(job.packageFileId, job.packageSha256);
      const problem = await this.problemOf(pkg);
      const files = await Promise.all(job.files.map(async (f) => ({ name: f.fileName, bytes: await client.download(f.fileId, f.sha256) })));
      let lastProgress = 0;
      const buildDir = pkg.buildDir;
      // an error escaping the judging (a bug) fails this attempt and stops its runs, nothing else
      const result = await this.strays.run(`job ${job.jobId}`, (strayed) => withCancel(AbortSignal.any([lease.signal, strayed]), () => judgeSubmission({
        ...this.judgeInput(job, problem, files, buildDir),
        onProgress: (done, total) => {
          // at most one progress call a second: it is a write on the server
          if (Date.now() - lastProgress < 1000 && done < total) return;
          lastProgress = Date.now();
          client.progress(job, done, total).catch(() => undefined);
        },
      })));
      if (lease.lost()) return this.o.log(`job ${job.jobId}: withdrawn while judging (cancelled, or the lease lapsed); its runs were stopped and nothing is reported`);
      const details = await client.upload('details.json', JSON.stringify(result.details), 'application/json');
      const log = await client.upload('log.txt', result.log, 'text/plain');
      const attached = [
        { name: 'details', fileId: details.id },
        { name: 'log', fileId: log.id },
      ];
      // the compiler's output is an attachment of its own: the submission's author sees it by default
      if (result.compileOutput !== undefined) attached.push({ name: 'compile', fileId: (await client.upload('compile.txt', result.compileOutput, 'text/plain')).id });
      // a validator that crashed or a package that cannot be judged is not the submission's doing:
      // reported as an infrastructure failure (the server tries again, then fails the attempt)
      const internal = result.infrastructureFailure ?? (result.verdict === 'JE' ? judgeErrorOf(result.log) : undefined);
      if (internal) {
        await this.failJob(job, internal, attached);
        return;
      }
      await client.report(job, {
        verdict: result.verdict,
        score: result.score,
        ...(result.maxScore !== undefined ? { maxScore: result.maxScore } : {}),
        runnerVersion: this.o.runnerVersion,
        files: attached,
      });
      this.stats.judged++;
      this.o.log(`job ${job.jobId} (submission ${job.submissionId}, attempt ${job.attempt}): ${result.verdict} ${result.score}${result.maxScore !== undefined ? `/${result.maxScore}` : ''} in ${Date.now() - started} ms`);
    } catch (e) {
      if (lease.lost()) return this.o.log(`job ${job.jobId}: withdrawn while judging (cancelled, or the lease lapsed); its runs were stopped and nothing is reported`);
      await this.failJob(job, e instanceof PackageError ? `broken package: ${e.message}` : `runner error: ${(e as Error).message}`);
    } finally {
      lease.stop();
      pkg?.release();
      this.held.delete(job.jobId);
    }
  }

  /** Reports that the job could not be judged here; the server queues it again (up to five deliveries). */
  private async failJob(job: ClaimedJob, reason: string, files: { name: string; fileId: string }[] = []): Promise<void> {
    this.stats.failed++;
    this.o.log(`job ${job.jobId}: infrastructure failure: ${reason}`);
    try {
      await this.o.client.report(job, { infrastructureFailure: true, failureReason: reason.slice(0, 2000), runnerVersion: this.o.runnerVersion, files });
    } catch (e) {
      this.o.log(`job ${job.jobId}: could not report the failure: ${(e as Error).message}`);
    }
  }

  /**
   * A sample run: the package's samples only, judged as a job is; withdrawn (its author started
   * another) shows as a lost lease, and nothing is reported. Logged here: staff see sample runs
   * in the judge log only.
   */
  private async sampleRun(run: ClaimedSampleRun): Promise<void> {
    const { client } = this.o;
    this.held.set(run.sampleRunId, { kind: 'sampleRun', lease: run });
    const lease = this.keepLease(() => client.renewSampleRun(run, this.leaseSeconds));
    let pkg: CachedPackage | undefined;
    const started = Date.now();
    try {
      if (!run.packageFileId) throw new PackageError('the problem version has no package to judge with');
      pkg = await this.o.cache.acquire(run.packageFileId, run.packageSha256);
      const problem = await this.problemOf(pkg);
      const buildDir = pkg.buildDir;
      const files = run.files.map((f) => ({ name: f.name, bytes: Buffer.from(f.code, 'utf8') }));
      const r = await this.strays.run(`sample run ${run.sampleRunId}`, (strayed) => withCancel(AbortSignal.any([lease.signal, strayed]), () => runSamples(this.judgeInput(run, problem, files, buildDir))));
      if (lease.lost()) return this.o.log(`sample run ${run.sampleRunId}: withdrawn (replaced by its author, or the lease lapsed); nothing is reported`);
      await client.reportSampleRun(run, 'failure' in r ? { failureReason: r.failure.slice(0, 2000) } : r);
      this.stats.sampleRuns++;
      this.o.log(`sample run ${run.sampleRunId}: ${'failure' in r ? `failed: ${r.failure}` : `${r.verdict} on ${r.samples.length} samples`} in ${Date.now() - started} ms`);
    } catch (e) {
      if (!lease.lost()) {
        const reason = e instanceof PackageError ? `broken package: ${e.message}` : `runner error: ${(e as Error).message}`;
        this.o.log(`sample run ${run.sampleRunId}: ${reason}`);
        await client.reportSampleRun(run, { failureReason: reason.slice(0, 2000) }).catch(() => undefined);
      }
    } finally {
      lease.stop();
      pkg?.release();
      this.held.delete(run.sampleRunId);
    }
  }

  private async trial(trial: ClaimedTrial): Promise<void> {
    const { client } = this.o;
    this.held.set(trial.trialId, { kind: 'trial', lease: trial });
    const lease = this.keepLease(() => client.renewTrial(trial, this.leaseSeconds));
    let pkg: CachedPackage | undefined;
    try {
      pkg = await this.o.cache.acquire(trial.packageFileId, trial.packageSha256);
      const problem = await this.problemOf(pkg);
      const buildDir = pkg.buildDir;
      const r = await this.strays.run(`trial ${trial.trialId}`, (strayed) => withCancel(AbortSignal.any([lease.signal, strayed]), () => runTrial({
        sandbox: this.o.sandbox,
        languages: this.o.languages,
        problem,
        problemType: trial.problemType,
        ...(this.o.limits ? { limits: this.o.limits } : {}),
        ...(trial.maxima ? { maxima: trial.maxima } : {}),
        buildDir,
        ...(this.o.compileCache ? { compileCache: this.o.compileCache } : {}),
      })));
      if (!lease.lost()) await client.reportTrial(trial, { measurement: r.measurement });
      this.stats.trials++;
      this.o.log(`trial ${trial.trialId}: ${r.ok ? 'every example as expected' : 'some examples not as expected'}`);
    } catch (e) {
      if (!lease.lost()) {
        const reason = e instanceof PackageError ? `broken package: ${e.message}` : `runner error: ${(e as Error).message}`;
        await client.reportTrial(trial, { failureReason: reason.slice(0, 2000) }).catch(() => undefined);
      }
    } finally {
      lease.stop();
      pkg?.release();
      this.held.delete(trial.trialId);
    }
  }
}

/** The judge's own account of a JE verdict (its log's "judge error:" lines), for the failure reason. */
function judgeErrorOf(log: string): string {
  const lines = log.split('\n').filter((l) => /judge error/i.test(l));
  return `judge error: ${lines.join('; ').replace(/^judge error:\s*/i, '') || 'the output validator failed'}`;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());
