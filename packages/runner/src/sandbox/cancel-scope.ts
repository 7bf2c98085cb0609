import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Withdrawn work stops at once: every sandbox run started (however deep in a grader) while
 * `withCancel(signal, fn)` runs is killed when `signal` aborts, and runs started after that are
 * refused. The signal travels with the async context, so graders need not pass it along.
 */
const scope = new AsyncLocalStorage<AbortSignal>();

export function withCancel<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
  return scope.run(signal, fn);
}

/** The cancel signal of the work this call belongs to, if any. */
export function currentCancel(): AbortSignal | undefined {
  return scope.getStore();
}
