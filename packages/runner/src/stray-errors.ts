import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The runner's last line of defence. An error no code of a judging caught (an 'error' event nobody
 * listened to, a promise rejected with nobody waiting) reaches the process's handlers instead of
 * ending the runner and every other judging with it. It is logged as the bug it is, with its
 * stack, every time; the work it came from (found by the async context it was thrown in) fails:
 * its promise rejects and its sandbox runs are stopped, so the agent reports that attempt as an
 * infrastructure failure (the server retries it, up to its delivery cap) and judges on.
 */
export class StrayErrors {
  /** Errors that escaped, attributed to work or not: a runner that counts any has a bug to fix. */
  count = 0;
  private readonly scope = new AsyncLocalStorage<Work>();
  private installed: (() => void) | undefined;

  constructor(private readonly log: (line: string) => void) {}

  /**
   * Runs `fn` as the work `name`. Its promise rejects with a StrayError as soon as an error of this
   * work escapes; `signal` aborts then (pass it on to withCancel to stop the work's sandbox runs).
   */
  run<T>(name: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const stop = new AbortController();
    let fail!: (e: Error) => void;
    const failed = new Promise<never>((_, reject) => (fail = reject));
    const work: Work = {
      name,
      fail: (e) => {
        stop.abort(e);
        fail(e);
      },
    };
    // Promise.race listens to both: whichever settles later is not an unhandled rejection
    return Promise.race([this.scope.run(work, () => fn(stop.signal)), failed]);
  }

  /** What the process handlers do with an error that escaped. */
  report(kind: string, e: unknown): void {
    this.count++;
    const work = this.scope.getStore();
    const err = e instanceof Error ? e : new Error(String(e));
    this.log(`BUG: ${kind} ${work ? `in ${work.name}` : 'outside any judging'}; the runner goes on: ${err.stack ?? err.message}`);
    work?.fail(new StrayError(`an error escaped the judging: ${err.message}`));
  }

  /** Catches what escapes, in this process, from now on (until the returned function is called). */
  install(): () => void {
    if (this.installed) return this.installed;
    const uncaught = (e: unknown): void => this.report('uncaught exception', e);
    const unhandled = (e: unknown): void => this.report('unhandled rejection', e);
    process.on('uncaughtException', uncaught);
    process.on('unhandledRejection', unhandled);
    this.installed = () => {
      process.off('uncaughtException', uncaught);
      process.off('unhandledRejection', unhandled);
      this.installed = undefined;
    };
    return this.installed;
  }
}

interface Work {
  name: string;
  fail(e: Error): void;
}

/** The error a work's promise rejects with when one of its errors escaped. */
export class StrayError extends Error {
  override name = 'StrayError';
}
