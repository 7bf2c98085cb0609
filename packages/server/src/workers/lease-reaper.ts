import type { Judging } from '../modules/judging/index.js';
import type { Deps } from '../services.js';
import { IntervalWorker } from './interval.js';

/**
 * Puts jobs and trials whose lease lapsed back in the queue (lapsed sample runs fail), and gives up
 * on those handed out five times without a result (decisions §7); judging decides, this worker
 * keeps time. `tick(now)` is what tests call with a fake clock.
 */
type Reaped = { jobs: number; trials: number; sampleRuns: number };

export class LeaseReaper extends IntervalWorker<Promise<Reaped>> {
  constructor(
    d: Deps,
    private readonly judging: Pick<Judging, 'reap'>,
  ) {
    super(d, 'lease reaper');
  }

  /** Every 5 s: a lease lasts at least 15 s, so a lapsed one waits at most a third of that again. */
  override start(intervalMs = 5000): void {
    super.start(intervalMs);
  }

  tick(now: Date): Promise<Reaped> {
    return this.judging.reap(now);
  }
}
