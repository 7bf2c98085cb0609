import Database from 'better-sqlite3';
import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { UnscopedNesting } from '../src/db/scope-check.js';
import { SqliteEngine } from '../src/db/sqlite-engine.js';
import type { Q } from '../src/db/storage.js';
import { Transactor, type Outbox } from '../src/db/transactor.js';

const count = async (q: Q) => (await q.get<{ n: number }>(sql`SELECT count(*) AS n FROM t`))!.n;

/** A table `t (v)` in memory, behind the SQLite engine. */
function memoryEngine() {
  const sqlite = new Database(':memory:');
  sqlite.exec('CREATE TABLE t (v INTEGER NOT NULL)');
  return { sqlite, engine: new SqliteEngine(sqlite) };
}

describe('the transactor runs its hooks only where a write ended as they expect', () => {
  let sqlite: Database.Database;
  let engine: SqliteEngine;
  let calls: string[];
  let tx: Transactor;

  beforeEach(() => {
    ({ sqlite, engine } = memoryEngine());
    calls = [];
    tx = new Transactor(engine, {
      settled: [(out: Outbox) => calls.push(`settled:${out.permissionsChanged}`)],
      committed: [(out) => calls.push(`first:${out.messages.length}`), () => calls.push('second')],
    });
  });
  afterEach(() => sqlite.close());

  it('after a commit, the outbox work and then the hooks run in order, once the rows are visible', async () => {
    const seen: number[] = [];
    const result = await tx.write(async (q, out) => {
      await q.run(sql`INSERT INTO t (v) VALUES (1)`);
      out.touchPermissions();
      out.endSessions(['s1'], 'logout');
      out.then(() => {
        calls.push('then');
        seen.push((sqlite.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n);
      });
      expect(calls).toEqual([]);
      return 'done';
    });
    expect(result).toBe('done');
    expect(calls).toEqual(['settled:true', 'then', 'first:1', 'second']);
    expect(seen).toEqual([1]);
    expect(sqlite.inTransaction).toBe(false);
  });

  it('a rollback runs no commit hook and no outbox work, keeps nothing, and rethrows', async () => {
    await expect(
      tx.write(async (q, out) => {
        await q.run(sql`INSERT INTO t (v) VALUES (1)`);
        out.then(() => calls.push('then'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    // only the settled hook runs: caches filled inside the transaction must be dropped either way
    expect(calls).toEqual(['settled:false']);
    expect(await tx.read(count)).toBe(0);
  });

  it('without hooks a write just commits', async () => {
    const bare = new Transactor(engine);
    await bare.write((q) => q.run(sql`INSERT INTO t (v) VALUES (2)`));
    expect((sqlite.prepare('SELECT v FROM t').get() as { v: number }).v).toBe(2);
  });
});

/** Both modes: the server's (no scope followed) and the tests' (JUDGE_TX_SCOPE_CHECK, scope-check.ts). */
describe.each([
  ['as the server runs it', false],
  ['with the scope check of the tests', true],
])('a read or write handed the scope it is called within runs inside it, %s', (_mode, checkScopes) => {
  let sqlite: Database.Database;
  let tx: Transactor;
  let released: number[];

  beforeEach(() => {
    const m = memoryEngine();
    sqlite = m.sqlite;
    released = [];
    tx = new Transactor(m.engine, { committed: [(out) => released.push(out.messages.length)] }, checkScopes);
  });
  afterEach(() => sqlite.close());

  it('a read handed a write\'s q sees the write so far instead of waiting for it forever', async () => {
    const seen = await tx.write(async (q) => {
      await q.run(sql`INSERT INTO t (v) VALUES (1)`);
      return tx.read((inner) => count(inner), q);
    });
    expect(seen).toBe(1);
  });

  it('a write handed a write\'s scope joins it: one commit, one release with both events, one rollback for both', async () => {
    await tx.write(async (q, out) => {
      await q.run(sql`INSERT INTO t (v) VALUES (1)`);
      out.emit({ type: 'a' } as never);
      await tx.write(async (inner, innerOut) => {
        expect(innerOut).toBe(out);
        await inner.run(sql`INSERT INTO t (v) VALUES (2)`);
        innerOut.emit({ type: 'b' } as never);
      }, { q, out });
    });
    expect(released).toEqual([2]);
    await expect(
      tx.write(async (q, out) => {
        await q.run(sql`INSERT INTO t (v) VALUES (3)`);
        await tx.write(async () => {
          throw new Error('inner fails');
        }, { q, out });
      }),
    ).rejects.toThrow('inner fails');
    expect(await tx.read(count)).toBe(2);
    expect(released).toEqual([2]);
  });

  it('a write handed the scope of a write that has ended is refused: its events would never leave', async () => {
    let kept: { q: Q; out: Outbox } | undefined;
    await tx.write(async (q, out) => {
      kept = { q, out };
    });
    await expect(tx.write(async (q) => q.run(sql`INSERT INTO t (v) VALUES (1)`), kept)).rejects.toThrow(/has ended/);
    expect(await tx.read(count)).toBe(0);
  });

  it('work a write left running is no longer inside it once the write ended', async () => {
    let later: Promise<number> | undefined;
    let go!: () => void;
    const gate = new Promise<void>((r) => (go = r));
    await tx.write(async (q) => {
      await q.run(sql`INSERT INTO t (v) VALUES (1)`);
      later = gate.then(() => tx.read(count));
    });
    // another write holds the lock now; the left-behind read must wait for it, not read beside it
    await tx.write(async (q) => {
      await q.run(sql`INSERT INTO t (v) VALUES (2)`);
      go();
      await new Promise((r) => setTimeout(r, 20));
      await q.run(sql`INSERT INTO t (v) VALUES (3)`);
    });
    expect(await later).toBe(3);
  });
});

describe('with the scope check on, a read or write begun inside an open one without its scope is refused', () => {
  let sqlite: Database.Database;
  let tx: Transactor;

  beforeEach(() => {
    const m = memoryEngine();
    sqlite = m.sqlite;
    tx = new Transactor(m.engine, {}, true);
  });
  afterEach(() => sqlite.close());

  it('a read inside a write, at once and in words, and the write rolls back', async () => {
    await expect(
      tx.write(async (q) => {
        await q.run(sql`INSERT INTO t (v) VALUES (1)`);
        return tx.read(count);
      }),
    ).rejects.toThrow('a read began inside an open write without being given its scope: pass it');
    expect(await tx.read(count)).toBe(0);
  });

  it('a write inside a write, a read inside a read, and a write inside a read', async () => {
    await expect(tx.write(async () => tx.write(async () => 1))).rejects.toThrow(/a write began inside an open write without being given its scope/);
    await expect(tx.read(async () => tx.read(async () => 1))).rejects.toThrow(/a read began inside an open read without being given its scope/);
    await expect(tx.read(async () => tx.write(async () => 1))).rejects.toThrow(/a write began inside an open read/);
  });

  it('found through awaits and calls between the two, as a service calling another would', async () => {
    const inner = async () => {
      await Promise.resolve();
      return tx.read(count);
    };
    await expect(tx.write(async () => { await new Promise((r) => setImmediate(r)); return inner(); })).rejects.toBeInstanceOf(UnscopedNesting);
  });

  it('a scope handed on where none is open is refused, and a write handed a read\'s scope', async () => {
    const q = await tx.read(async (q) => q);
    await expect(tx.read(count, q)).rejects.toThrow(/not open here/);
    await expect(tx.read(async (q) => tx.write(async () => 1, { q, out: {} as Outbox }))).rejects.toThrow(/a write began inside a read/);
  });

  it('another transactor\'s open write does not count', async () => {
    const other = memoryEngine();
    try {
      const otherTx = new Transactor(other.engine, {}, true);
      expect(await tx.write(async () => otherTx.read(count))).toBe(0);
    } finally {
      other.sqlite.close();
    }
  });
});

describe('as the server runs it, the transactor follows no scope', () => {
  afterEach(() => vi.restoreAllMocks());

  it('without JUDGE_TX_SCOPE_CHECK it never enters an AsyncLocalStorage (which would slow every await of the process)', async () => {
    const run = vi.spyOn(AsyncLocalStorage.prototype, 'run');
    const enterWith = vi.spyOn(AsyncLocalStorage.prototype, 'enterWith');
    const m = memoryEngine();
    vi.stubEnv('JUDGE_TX_SCOPE_CHECK', '');
    try {
      const tx = new Transactor(m.engine);
      await tx.write(async (q, out) => {
        await q.run(sql`INSERT INTO t (v) VALUES (1)`);
        await tx.write((inner) => inner.run(sql`INSERT INTO t (v) VALUES (2)`), { q, out });
      });
      expect(await tx.read(count)).toBe(2);
      expect(run).not.toHaveBeenCalled();
      expect(enterWith).not.toHaveBeenCalled();
      // the same spies see the check's, so they would have seen one here
      await new Transactor(m.engine, {}, true).read(count);
      expect(run).toHaveBeenCalled();
    } finally {
      vi.unstubAllEnvs();
      m.sqlite.close();
    }
  });
});
