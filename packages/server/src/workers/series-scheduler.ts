import type { SeriesService, SeriesTransition } from '../modules/series/index.js';
import type { Deps } from '../services.js';
import { IntervalWorker } from './interval.js';

export type { SeriesTransition };

/**
 * Opens and closes the series of published, unarchived activities as their dates pass (decisions §7);
 * the series service decides and announces, this worker only keeps time. `tick(now)` is what tests
 * call with a fake clock.
 */
export class SeriesScheduler extends IntervalWorker<Promise<SeriesTransition[]>> {
  constructor(
    d: Deps,
    private readonly series: SeriesService,
  ) {
    super(d, 'series scheduler');
  }

  override start(intervalMs = 15_000): void {
    super.start(intervalMs);
  }

  tick(now: Date): Promise<SeriesTransition[]> {
    return this.series.settleDue(now);
  }
}
