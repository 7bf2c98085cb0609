import type { Deps } from '../../services.js';
import { IntervalWorker } from '../../workers/interval.js';
import type { DeletionRequests } from './deletion-requests.js';

/**
 * Carries out the account deletion requests that are due (DeletionRequests.sweep), every minute on
 * the server leading the cluster: a request waits hours, so a minute's delay is nothing, and one
 * server at a time keeps two from emptying the same account at once.
 */
export class DeletionSweeper extends IntervalWorker<Promise<number>> {
  constructor(
    d: Deps,
    private readonly requests: DeletionRequests,
  ) {
    super(d, 'account deletion sweep');
  }

  override start(intervalMs = 60_000): void {
    super.start(intervalMs);
  }

  tick(now: Date): Promise<number> {
    return this.requests.sweep(now);
  }
}
