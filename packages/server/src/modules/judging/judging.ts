import type { Outbox } from '../../db/transactor.js';
import type { Deps } from '../../services.js';
import type { FilesService } from '../files/index.js';
import type { VersionCalibration } from '../problems/index.js';
import type { RunnerWork } from '../runners/index.js';
import type { SubmissionJudging, SubmissionRow } from '../submissions/index.js';
import type { Q } from '../../db/storage.js';
import { JobsService } from './jobs.js';
import { SubmissionOutcome, type RankingHooks } from './outcome.js';
import { SampleRunQueue } from './sample-run-queue.js';
import { TrialsService } from './trials.js';

/**
 * The attempt lifecycle in one place: jobs and trials under leases, their deliveries, the reaping
 * of lapsed leases, and the outcome a report gives a submission. Submissions and runner management
 * reach it only through the two narrow answers below.
 */
export class Judging {
  readonly outcome: SubmissionOutcome;
  readonly jobs: JobsService;
  readonly trials: TrialsService;
  readonly sampleRuns: SampleRunQueue;

  constructor(
    d: Deps,
    files: FilesService,
    ranking: RankingHooks,
  ) {
    this.outcome = new SubmissionOutcome(d, ranking);
    this.jobs = new JobsService(d, this.outcome);
    this.trials = new TrialsService(d, files);
    // a runner long-polls for jobs and asks for a trial only when that poll ends: a queued trial
    // ends it at once, so that a trial starts as soon as a runner is free
    this.jobs.otherWork = (runner) => this.trials.queuedFor(runner);
    // a calibration goes before submissions: until it reports, its version is judged at the default limit
    this.jobs.workFirst = (runner) => this.trials.queuedFor(runner, true);
    this.trials.signal.alsoWake(this.jobs.signal);
    this.sampleRuns = new SampleRunQueue(d, this.jobs);
  }

  /** What submitting, rejudging, cancelling and exclusion ask of judging, inside their transactions. */
  readonly forSubmissions: SubmissionJudging = {
    settle: (q: Q, submissionId: string, out: Outbox, opts: { stateChanged: boolean; resultChanged: boolean }): Promise<SubmissionRow> =>
      this.outcome.settle(q, submissionId, out, opts),
    queued: (out: Outbox): void => out.then(() => this.jobs.signal.notify()),
  };

  /** What a new problem version asks: a trial computing the time limit its package does not name, in the version's transaction. */
  readonly forProblems: VersionCalibration = {
    queue: (q, v, out) => this.trials.calibrate(q, v, out),
  };

  /** What a change of a runner means for the work it holds or could claim. */
  readonly forRunners: RunnerWork = {
    requeueAllOf: async (q: Q, runnerId: string, out: Outbox, reason: string): Promise<void> => {
      await this.jobs.requeueAllOf(q, runnerId, out, reason);
      await this.trials.requeueAllOf(q, runnerId, reason);
      await this.sampleRuns.failAllOf(q, runnerId, reason);
      out.then(() => this.trials.signal.notify());
    },
    wake: (out: Outbox): void => out.then(() => this.jobs.signal.notify()),
  };

  /** Jobs and trials whose lease lapsed go back to the queue, or are given up after too many deliveries; lapsed sample runs fail. */
  async reap(now: Date): Promise<{ jobs: number; trials: number; sampleRuns: number }> {
    return { jobs: await this.jobs.reap(now), trials: await this.trials.reap(now), sampleRuns: await this.sampleRuns.reap(now) };
  }

  /** The server is closing: long polls answer 204 now rather than wait out their time. */
  close(): void {
    this.jobs.signal.close();
    this.trials.signal.close();
  }
}
