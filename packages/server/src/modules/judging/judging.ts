import type { Outbox } from '../../db/transactor.js';
import type { Deps } from '../../services.js';
import type { FilesService } from '../files/index.js';
import type { VersionCalibration } from '../problems/index.js';
import type { RunnerWork } from '../runners/index.js';
import type { SubmissionJudging, SubmissionRow } from '../submissions/index.js';
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

  constructor(d: Deps, files: FilesService, ranking: RankingHooks) {
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

  /** What submitting, rejudging and exclusion ask of judging. */
  readonly forSubmissions: SubmissionJudging = {
    settle: (submissionId: string, out: Outbox, opts: { stateChanged: boolean; resultChanged: boolean }): SubmissionRow =>
      this.outcome.settle(submissionId, out, opts),
    queued: (out: Outbox): void => out.then(() => this.jobs.signal.notify()),
  };

  /** What a new problem version asks: a trial computing the time limit its package does not name. */
  readonly forProblems: VersionCalibration = {
    queue: (v, out) => this.trials.calibrate(v, out),
  };

  /** What a change of a runner means for the work it holds or could claim. */
  readonly forRunners: RunnerWork = {
    requeueAllOf: (runnerId: string, out: Outbox, reason: string): void => {
      this.jobs.requeueAllOf(runnerId, out, reason);
      this.trials.requeueAllOf(runnerId, reason);
      this.sampleRuns.failAllOf(runnerId, reason);
      out.then(() => this.trials.signal.notify());
    },
    wake: (out: Outbox): void => out.then(() => this.jobs.signal.notify()),
  };

  /** Jobs and trials whose lease lapsed go back to the queue, or are given up after too many deliveries; lapsed sample runs fail. */
  reap(now: Date): { jobs: number; trials: number; sampleRuns: number } {
    return { jobs: this.jobs.reap(now), trials: this.trials.reap(now), sampleRuns: this.sampleRuns.reap(now) };
  }

  /** The server is closing: long polls answer 204 now rather than wait out their time. */
  close(): void {
    this.jobs.signal.close();
    this.trials.signal.close();
  }
}
