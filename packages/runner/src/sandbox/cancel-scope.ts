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

/**
 * Runs `fn` outside any cancel scope: for work shared by several jobs (a package's validator,
 * built once for all who wait on it), which one job's cancel must not kill.
 */
export function outsideCancel<T>(fn: () => Promise<T>): Promise<T> {
  return scope.exit(fn);
}
