/**
 * The entry of a bounded pool's thread (pool.ts): loads one job module, says it is ready, then
 * answers each input posted to it with the job's output or its error. A job module's default
 * export is a function of one structured-clonable input.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';

type Job = (input: unknown) => unknown;

/**
 * This thread yields the processor to the event loop: on Linux a thread's id names it to
 * setpriority, and /proc/thread-self tells this thread its own. Elsewhere it runs as it is.
 */
function yieldToEventLoop(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (tid) setPriority(tid, 10);
  } catch {
    // no /proc, or not allowed: the limits still hold, only the sharing is the system's
  }
}

yieldToEventLoop();
const port = parentPort!;
const { module } = workerData as { module: string };
const job = ((await import(module)) as { default: Job }).default;

port.on('message', (input: unknown) => {
  void (async () => {
    try {
      const output = await job(input);
      port.postMessage({ ok: true, output });
    } catch (e) {
      port.postMessage({ ok: false, message: e instanceof Error ? e.message : String(e) });
    }
  })();
});
port.postMessage({ ready: true });
