import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReadWriteLock, describeStuck, type StuckWaiter } from '../src/db/rw-lock.js';

/** The fair readers-writer lock SQLite's engine puts around its one connection (src/db/rw-lock.ts). */

/** Lets every pending continuation run: the lock hands over through promise callbacks. */
const settle = () => new Promise<void>((go) => setImmediate(go));

/** A holder that records when it entered and leaves when told. */
function holder(lock: ReadWriteLock, log: string[], kind: 'read' | 'write', name: string) {
  let leave!: () => void;
  const left = new Promise<void>((go) => (leave = go));
  const done = lock[kind](async () => {
    log.push(`+${name}`);
    await left;
    log.push(`-${name}`);
    return name;
  });
  return { leave, done };
}

describe('the readers-writer lock', () => {
  it('lets readers in together', async () => {
    const lock = new ReadWriteLock();
    const log: string[] = [];
    const a = holder(lock, log, 'read', 'r1');
    const b = holder(lock, log, 'read', 'r2');
    await settle();
    expect(log).toEqual(['+r1', '+r2']);
    expect(lock.writerInside).toBe(false);
    b.leave();
    a.leave();
    expect(await Promise.all([a.done, b.done])).toEqual(['r1', 'r2']);
  });

  it('lets a writer in alone: it waits for the readers inside, and everyone waits for it', async () => {
    const lock = new ReadWriteLock();
    const log: string[] = [];
    const r1 = holder(lock, log, 'read', 'r1');
    const w1 = holder(lock, log, 'write', 'w1');
    await settle();
    expect(log).toEqual(['+r1']);
    r1.leave();
    await settle();
    expect(log).toEqual(['+r1', '-r1', '+w1']);
    expect(lock.writerInside).toBe(true);
    const r2 = holder(lock, log, 'read', 'r2');
    const w2 = holder(lock, log, 'write', 'w2');
    await settle();
    expect(log.at(-1)).toBe('+w1');
    w1.leave();
    await settle();
    expect(log.slice(3)).toEqual(['-w1', '+r2']);
    r2.leave();
    await settle();
    expect(log.slice(5)).toEqual(['-r2', '+w2']);
    w2.leave();
    await Promise.all([r1.done, w1.done, r2.done, w2.done]);
    expect(lock.writerInside).toBe(false);
  });

  it('does not starve a waiting writer: readers arriving after it wait for it', async () => {
    const lock = new ReadWriteLock();
    const log: string[] = [];
    const r1 = holder(lock, log, 'read', 'r1');
    const w = holder(lock, log, 'write', 'w');
    const later = [holder(lock, log, 'read', 'r2'), holder(lock, log, 'read', 'r3')];
    await settle();
    expect(log).toEqual(['+r1']);
    r1.leave();
    await settle();
    expect(log).toEqual(['+r1', '-r1', '+w']);
    w.leave();
    await settle();
    expect(log).toEqual(['+r1', '-r1', '+w', '-w', '+r2', '+r3']);
    for (const r of later) r.leave();
    await Promise.all([r1.done, w.done, ...later.map((r) => r.done)]);
  });

  it('serves waiters in the order they came: readers up to the next writer together, then that writer', async () => {
    const lock = new ReadWriteLock();
    const log: string[] = [];
    const w1 = holder(lock, log, 'write', 'w1');
    const queued = [holder(lock, log, 'read', 'r1'), holder(lock, log, 'read', 'r2'), holder(lock, log, 'write', 'w2'), holder(lock, log, 'read', 'r3'), holder(lock, log, 'write', 'w3')];
    const [r1, r2, w2, r3, w3] = queued as [ReturnType<typeof holder>, ReturnType<typeof holder>, ReturnType<typeof holder>, ReturnType<typeof holder>, ReturnType<typeof holder>];
    await settle();
    w1.leave();
    await settle();
    expect(log).toEqual(['+w1', '-w1', '+r1', '+r2']);
    r2.leave();
    await settle();
    // w2 waits for r1 too, and r3 (after w2) does not slip in
    expect(log.slice(4)).toEqual(['-r2']);
    r1.leave();
    await settle();
    expect(log.slice(5)).toEqual(['-r1', '+w2']);
    w2.leave();
    await settle();
    expect(log.slice(7)).toEqual(['-w2', '+r3']);
    r3.leave();
    await settle();
    expect(log.slice(9)).toEqual(['-r3', '+w3']);
    w3.leave();
    await Promise.all([w1.done, ...queued.map((h) => h.done)]);
  });

  it('is let go by a holder that fails', async () => {
    const lock = new ReadWriteLock();
    await expect(lock.write(async () => Promise.reject(new Error('write failed')))).rejects.toThrow('write failed');
    await expect(lock.read(async () => Promise.reject(new Error('read failed')))).rejects.toThrow('read failed');
    expect(lock.writerInside).toBe(false);
    expect(await lock.write(async () => 'next writer')).toBe('next writer');
    expect(await Promise.all([lock.read(async () => 1), lock.read(async () => 2)])).toEqual([1, 2]);
  });
});

describe('the lock reports a request stuck waiting, and refuses nothing', () => {
  afterEach(() => vi.useRealTimers());

  /** A lock whose watch reports after 10 s into `reports`, on a clock the test moves. */
  function watched() {
    vi.useFakeTimers();
    const reports: StuckWaiter[] = [];
    return { lock: new ReadWriteLock({ afterMs: 10_000, report: (s) => reports.push(s) }), reports };
  }

  it('a write waiting inside the write it waits for (a nested write without its scope) is reported once, in words', async () => {
    const { lock, reports } = watched();
    let inner: Promise<number> | undefined;
    const outer = lock.write(async () => {
      inner = lock.write(async () => 1);
      await new Promise(() => undefined);
    });
    void outer;
    await vi.advanceTimersByTimeAsync(9_999);
    expect(reports).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(reports).toEqual([{ wants: 'write', waitedMs: 10_000, heldBy: 'write', readers: 0, waiting: 1 }]);
    const later = lock.read(async () => 2);
    await vi.advanceTimersByTimeAsync(60_000);
    // the same stuck waiter is not reported again; the read behind it is not the one stuck
    expect(reports).toHaveLength(1);
    expect(describeStuck(reports[0]!)).toMatch(/^a write has waited 10 s for the database, held by a write, with 1 request\(s\) waiting: a read or write begun inside an open one without being handed its scope/);
    expect(inner).toBeDefined();
    void later;
  });

  it('a read queued behind a writer that waits for the read holding the lock is reported with the readers that hold it', async () => {
    const { lock, reports } = watched();
    let release!: () => void;
    const r1 = lock.read(() => new Promise<void>((go) => (release = go)));
    const w = lock.write(async () => 'w');
    const r2 = lock.read(async () => 'r2');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(reports).toEqual([{ wants: 'write', waitedMs: 10_000, heldBy: 'read', readers: 1, waiting: 2 }]);
    release();
    expect(await Promise.all([r1, w, r2])).toEqual([undefined, 'w', 'r2']);
  });

  it('waits that end in time are never reported, however many follow each other', async () => {
    const { lock, reports } = watched();
    for (let i = 0; i < 5; i++) {
      let leave!: () => void;
      const held = lock.write(() => new Promise<void>((go) => (leave = go)));
      const waiter = lock.write(async () => i);
      await vi.advanceTimersByTimeAsync(9_000);
      leave();
      expect(await waiter).toBe(i);
      await held;
    }
    await vi.advanceTimersByTimeAsync(60_000);
    expect(reports).toEqual([]);
  });
});
