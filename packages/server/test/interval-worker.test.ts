import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { IntervalWorker, type WorkerDeps } from '../src/workers/interval.js';
import { RetentionWorker } from '../src/workers/retention.js';
import { SqliteEngine } from '../src/db/sqlite-engine.js';
import { Transactor } from '../src/db/transactor.js';
import { systemClock } from '../src/util.js';

/** A logger whose lines the test reads back. */
function capturingLog() {
  const lines: { level: number; msg: string; err?: { message: string } }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l));
      done();
    },
  });
  return { log: pino({ level: 'info' }, sink), lines };
}

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Fails its first tick by throwing and its second by rejecting, then succeeds. */
class Flaky extends IntervalWorker<unknown, WorkerDeps> {
  ticks = 0;
  tick(): unknown {
    this.ticks++;
    if (this.ticks === 1) throw new Error('thrown on tick 1');
    if (this.ticks === 2) return Promise.reject(new Error('rejected on tick 2'));
    return this.ticks;
  }
}

const stoppers: (() => void)[] = [];
afterEach(() => {
  for (const s of stoppers.splice(0)) s();
});

describe('IntervalWorker', () => {
  it('logs a tick that throws and a tick that rejects, and keeps ticking', async () => {
    const { log, lines } = capturingLog();
    const w = new Flaky({ clock: systemClock, log }, 'flaky');
    stoppers.push(() => w.stop());
    w.start(5);
    await until(() => w.ticks >= 4 && lines.length >= 2);
    const failures = lines.filter((l) => l.msg === 'flaky tick failed');
    expect(failures.map((l) => [l.level, l.err?.message])).toEqual([
      [50, 'thrown on tick 1'],
      [50, 'rejected on tick 2'],
    ]);
  });

  it('does not start an asynchronous tick while the previous one still runs', async () => {
    const { log } = capturingLog();
    let running = 0;
    let most = 0;
    let ticks = 0;
    class Slow extends IntervalWorker<Promise<void>, WorkerDeps> {
      async tick(): Promise<void> {
        ticks++;
        most = Math.max(most, ++running);
        await new Promise((r) => setTimeout(r, 30));
        running--;
      }
    }
    const w = new Slow({ clock: systemClock, log }, 'slow');
    stoppers.push(() => w.stop());
    w.start(2);
    await until(() => ticks >= 3);
    expect(most).toBe(1);
  });
});

describe('RetentionWorker', () => {
  it('is an interval worker: a failing tick is logged with its name and the next one runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judge-retention-'));
    stoppers.push(() => rmSync(dir, { recursive: true, force: true }));
    // a database without the tables retention cleans: every tick fails
    const sqlite = new Database(join(dir, 'empty.db'));
    stoppers.push(() => sqlite.close());
    const { log, lines } = capturingLog();
    const w = new RetentionWorker(new Transactor(new SqliteEngine(sqlite)), join(dir, 'incoming'), systemClock, log);
    expect(w).toBeInstanceOf(IntervalWorker);
    stoppers.push(() => w.stop());
    w.start(5);
    await until(() => lines.length >= 3);
    expect(lines.slice(0, 3).map((l) => l.msg)).toEqual(['retention tick failed', 'retention tick failed', 'retention tick failed']);
    expect(lines[0]!.err?.message).toMatch(/no such table: session_secrets/);
  });
});
