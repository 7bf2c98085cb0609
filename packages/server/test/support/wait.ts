/**
 * Waiting in tests: one way to pause and one way to poll, shared by the server's and the end-to-end
 * tests.
 */

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** What a probe gives while the awaited thing has not happened yet. */
export type NotYet = undefined | false;

/**
 * Polls `probe` every `pollMs` until it gives something other than `undefined` or `false`, and
 * returns that: a boolean condition resolves to `true`, a lookup to what it found. Throws naming
 * `what` once `ms` have passed without it.
 */
export async function until<T>(what: string, probe: () => T | NotYet | Promise<T | NotYet>, ms = 5000, pollMs = 5): Promise<Exclude<T, NotYet>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v as Exclude<T, NotYet>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(pollMs);
  }
}
