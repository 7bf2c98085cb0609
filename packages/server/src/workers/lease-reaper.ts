import type { JobsService } from '../modules/runners/jobs.js';
import type { TrialsService } from '../modules/trials/service.js';
import type { Deps } from '../services.js';
import { IntervalWorker } from './interval.js';

/**
 * Puts jobs and trials whose lease lapsed back in the queue, and gives up on those handed out five
 * times without a result (CONTRACT §7). `tick(now)` is what tests call with a fake clock.
 */
export class LeaseReaper extends IntervalWorker<{ jobs: number; trials: number }> {
  constructor(
    d: Deps,
    private readonly jobs: JobsService,
    private readonly trials: TrialsService,
  ) {
    super(d, 'lease reaper');
  }

  /** Every 5 s: a lease lasts at least 15 s, so a lapsed one waits at most a third of that again. */
  override start(intervalMs = 5000): void {
    super.start(intervalMs);
  }

  tick(now: Date): { jobs: number; trials: number } {
    return { jobs: this.jobs.reap(now), trials: this.trials.reap(now) };
  }
}
