import { afterAll, describe, expect, it } from 'vitest';
import { OffloopFailure } from '../src/offloop/failure.js';
import { BoundedPool, defineJob } from '../src/offloop/pool.js';

/**
 * The bounded pool on real worker threads: a job's answer comes back; a job past its time is
 * terminated, one past its memory is stopped, one that throws or overflows its stack fails, each as
 * a typed OffloopFailure; the threads left are still usable, and the event loop was never held.
 */

const JOB = defineJob<typeof import('./support/offloop-job.js').default>({ name: 'test', module: new URL('./support/offloop-job.js', import.meta.url), timeoutMs: 1500, memoryMb: 64 });
/** The same job with room in time, so that only its memory can stop it. */
const ROOMY = { ...JOB, name: 'test-roomy', timeoutMs: 60_000, memoryMb: 32 };
const pool = new BoundedPool({ size: 2 });
afterAll(() => pool.close());

async function failure(p: Promise<unknown>): Promise<OffloopFailure> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(OffloopFailure);
  return e as OffloopFailure;
}

describe('the bounded pool', () => {
  it('runs a job on a thread and answers its output', async () => {
    expect(await pool.run(JOB, { kind: 'echo', value: 'hello' })).toBe('hello from thread');
  });

  it('terminates a job past its time (timeout), while the event loop goes on', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const f = await failure(pool.run(JOB, { kind: 'spin' }));
    clearInterval(timer);
    expect(f.reason).toBe('timeout');
    // the loop ran throughout the 1.5 s the job spun (a loop held by it would have ticked once at most)
    expect(ticks).toBeGreaterThan(10);
  });

  it('stops a job past its memory (memory)', async () => {
    const f = await failure(pool.run(ROOMY, { kind: 'grow' }));
    expect(f.reason).toBe('memory');
  });

  it('fails a job that throws or overflows its stack (failed), naming why', async () => {
    expect(await failure(pool.run(JOB, { kind: 'throw', message: 'no way' }))).toMatchObject({ reason: 'failed', message: 'no way' });
    expect(await failure(pool.run(JOB, { kind: 'recurse' }))).toMatchObject({ reason: 'failed', message: expect.stringMatching(/call stack/) });
  });

  it('after every failure, jobs still run; several at once share the threads', async () => {
    const many = await Promise.all(Array.from({ length: 6 }, (_, i) => pool.run(JOB, { kind: 'echo', value: String(i) })));
    expect(many).toEqual(Array.from({ length: 6 }, (_, i) => `${i} from thread`));
    expect(pool.threadCount).toBeLessThanOrEqual(4);
  });

  it('refuses at once past its queue (busy), and after close', async () => {
    const small = new BoundedPool({ size: 1, queueMax: 1 });
    const first = small.run(JOB, { kind: 'echo', value: 'a' });
    const second = small.run(JOB, { kind: 'echo', value: 'b' });
    expect((await failure(small.run(JOB, { kind: 'echo', value: 'c' }))).reason).toBe('busy');
    expect(await Promise.all([first, second])).toEqual(['a from thread', 'b from thread']);
    await small.close();
    expect((await failure(small.run(JOB, { kind: 'echo', value: 'd' }))).reason).toBe('crashed');
  });
});
