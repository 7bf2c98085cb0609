import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
