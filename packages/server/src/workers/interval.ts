import type { Deps } from '../services.js';

/**
 * A background worker that calls `tick(now)` every so often with the server's clock; a failing
 * tick is logged and the next one runs as usual. Tests call `tick` directly with their own clock.
 */
export abstract class IntervalWorker<R = unknown> {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    protected readonly d: Deps,
    private readonly name: string,
  ) {}

  abstract tick(now: Date): R;

  start(intervalMs: number): void {
    this.stop();
    this.timer = setInterval(() => {
      try {
        this.tick(this.d.clock.now());
      } catch (e) {
        this.d.log.error({ err: e }, `${this.name} tick failed`);
      }
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
