import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { SqliteEngine } from '../src/db/sqlite-engine.js';
import type { Q } from '../src/db/storage.js';
import { Transactor, type Outbox } from '../src/db/transactor.js';

describe('the transactor runs its hooks only where a write ended as they expect', () => {
  let sqlite: Database.Database;
  let calls: string[];
  let tx: Transactor;

  beforeEach(() => {
    sqlite = new Database(':memory:');
    sqlite.exec('CREATE TABLE t (v INTEGER NOT NULL)');
    calls = [];
    tx = new Transactor(sqlite, {
      settled: [(out: Outbox) => calls.push(`settled:${out.permissionsChanged}`)],
      committed: [(out) => calls.push(`first:${out.messages.length}`), () => calls.push('second')],
    });
  });
  afterEach(() => sqlite.close());

  it('after a commit, the outbox work and then the hooks run in order, once the rows are visible', () => {
    const seen: number[] = [];
    const result = tx.run((out) => {
      sqlite.prepare('INSERT INTO t (v) VALUES (1)').run();
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
  });

  it('a rollback runs no commit hook and no outbox work, keeps nothing, and rethrows', () => {
    expect(() =>
      tx.run((out) => {
        sqlite.prepare('INSERT INTO t (v) VALUES (1)').run();
        out.then(() => calls.push('then'));
        throw new Error('refused');
      }),
    ).toThrow('refused');
    // only the settled hook runs: caches filled inside the transaction must be dropped either way
    expect(calls).toEqual(['settled:false']);
    expect((sqlite.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n).toBe(0);
  });

  it('without hooks a write just commits', () => {
    const bare = new Transactor(sqlite);
    bare.run(() => sqlite.prepare('INSERT INTO t (v) VALUES (2)').run());
    expect((sqlite.prepare('SELECT v FROM t').get() as { v: number }).v).toBe(2);
  });
});

describe('a read or write called from within another runs inside it', () => {
  let sqlite: Database.Database;
  let engine: SqliteEngine;
  let tx: Transactor;
  let released: number[];

  beforeEach(() => {
    sqlite = new Database(':memory:');
    sqlite.exec('CREATE TABLE t (v INTEGER NOT NULL)');
    engine = new SqliteEngine(sqlite);
    released = [];
    tx = new Transactor(sqlite, { committed: [(out) => released.push(out.messages.length)] }, engine);
  });
  afterEach(() => sqlite.close());

  const count = async (q: Q) => (await q.get<{ n: number }>(sql`SELECT count(*) AS n FROM t`))!.n;

  it('a read inside a write sees the write so far instead of waiting for it forever', async () => {
    const seen = await tx.write(async (q) => {
      await q.run(sql`INSERT INTO t (v) VALUES (1)`);
      return tx.read((inner) => count(inner));
    });
    expect(seen).toBe(1);
  });

  it('a write inside a write joins it: one commit, one release with both events, one rollback for both', async () => {
    await tx.write(async (q, out) => {
      await q.run(sql`INSERT INTO t (v) VALUES (1)`);
      out.emit({ type: 'a' } as never);
      await tx.write(async (inner, innerOut) => {
        await inner.run(sql`INSERT INTO t (v) VALUES (2)`);
        innerOut.emit({ type: 'b' } as never);
      });
    });
    expect(released).toEqual([2]);
    await expect(
      tx.write(async (q) => {
        await q.run(sql`INSERT INTO t (v) VALUES (3)`);
        await tx.write(async () => {
          throw new Error('inner fails');
        });
      }),
    ).rejects.toThrow('inner fails');
    expect(await tx.read(count)).toBe(2);
  });

  it('a write begun inside a read is refused at once rather than waiting for the read forever', async () => {
    await expect(tx.read(async () => tx.write(async () => 1))).rejects.toThrow(/inside a read/);
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
    const writing = tx.write(async (q) => {
      await q.run(sql`INSERT INTO t (v) VALUES (2)`);
      go();
      await new Promise((r) => setTimeout(r, 20));
      await q.run(sql`INSERT INTO t (v) VALUES (3)`);
    });
    await writing;
    expect(await later).toBe(3);
  });
});
