import type { JobsService } from '../modules/runners/jobs.js';
import type { TrialsService } from '../modules/trials/service.js';
import type { Deps } from '../services.js';

/**
 * Puts jobs and trials whose lease lapsed back in the queue, and gives up on those handed out five
 * times without a result (CONTRACT §7). `tick(now)` is what tests call with a fake clock.
 */
export class LeaseReaper {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly d: Deps,
    private readonly jobs: JobsService,
    private readonly trials: TrialsService,
  ) {}

  /** Every 5 s: a lease lasts at least 15 s, so a lapsed one waits at most a third of that again. */
  start(intervalMs = 5000): void {
    this.stop();
    this.timer = setInterval(() => {
      try {
        this.tick(this.d.clock.now());
      } catch (e) {
        this.d.log.error({ err: e }, 'lease reaper tick failed');
      }
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  tick(now: Date): { jobs: number; trials: number } {
    return { jobs: this.jobs.reap(now), trials: this.trials.reap(now) };
  }
}
