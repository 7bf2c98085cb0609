import type { Logger } from 'pino';
import type { Deps } from '../services.js';
import type { Clock } from '../util.js';

/** What a worker needs to run on its own: the server's clock, and a log for the ticks that fail. */
export interface WorkerDeps {
  clock: Clock;
  log: Logger;
}

/**
 * A background worker that calls `tick(now)` every so often with the server's clock; a failing
 * tick (a throw, or a rejected promise) is logged and the next one runs as usual. An asynchronous
 * tick still running when the next is due is not started twice. Tests call `tick` directly with
 * their own clock.
 */
export abstract class IntervalWorker<R = unknown, D extends WorkerDeps = Deps> {
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    protected readonly d: D,
    private readonly name: string,
  ) {}

  abstract tick(now: Date): R;

  start(intervalMs: number): void {
    this.stop();
    this.timer = setInterval(() => this.runOnce(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private runOnce(): void {
    if (this.running) return;
    const failed = (e: unknown) => this.d.log.error({ err: e }, `${this.name} tick failed`);
    try {
      const r: unknown = this.tick(this.d.clock.now());
      if (r instanceof Promise) {
        this.running = true;
        r.catch(failed).finally(() => (this.running = false));
      }
    } catch (e) {
      failed(e);
    }
  }
}
