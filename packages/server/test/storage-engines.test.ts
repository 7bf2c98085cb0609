import { and, count, eq, sql } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { openPostgres, PostgresEngine } from '../src/db/postgres-engine.js';
import { files, runnerEnrolmentCodes, users } from '../src/db/schema.js';
import { lockedRows, skipLockedRows, type Engine, type EngineName, type Q } from '../src/db/storage.js';
import { Transactor } from '../src/db/transactor.js';
import { freshDatabase } from './pg-cluster.js';

/**
 * The guarantees every service relies on (docs/storage.md), checked on both engines with the same
 * code: SQLite in a temporary file, PostgreSQL on a throw-away cluster (test/pg-cluster.ts).
 */

interface Opened {
  engine: Engine;
  tx: Transactor;
  /** What the committed writes released from their outboxes, in order. */
  released: string[];
  close(): Promise<void>;
}

async function openEngine(name: EngineName): Promise<Opened> {
  const released: string[] = [];
  const hooks = {};
  if (name === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'judge-engines-'));
    const h = openDatabase(join(dir, 'judge.db'));
    return {
      engine: h.engine,
      tx: new Transactor(h.engine, hooks),
      released,
      close: async () => {
        await h.engine.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const db = await freshDatabase();
  const engine = await openPostgres(db.url);
  return {
    engine,
    tx: new Transactor(engine, hooks),
    released,
    close: async () => {
      await engine.close();
      await db.drop();
    },
  };
}

const NOW = '2026-11-27T10:00:00.000Z';
let seq = 0;
/** A user row whose `note` groups the rows one test counts. */
const aUser = (note: string, id = `u${++seq}-${note}`) => ({ id, username: id, usernameKey: id.toLowerCase(), note, createdAt: NOW });
const countNote = async (q: Q, note: string) => (await q.select({ n: count() }).from(users).where(eq(users.note, note)))[0]!.n;

/** A promise and the function that settles it: the tests' way of holding a transaction open. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((go) => (open = go));
  return { opened, open };
}
const sleep = (ms: number) => new Promise<void>((go) => setTimeout(go, ms));
/** PostgreSQL's isolation level of the transaction `q` runs in (its builder is node-postgres' at run time). */
const isolationOf = async (q: Q): Promise<string> => {
  const pg = q as unknown as { execute(s: ReturnType<typeof sql>): Promise<{ rows: { transaction_isolation: string }[] }> };
  return (await pg.execute(sql`show transaction_isolation`)).rows[0]!.transaction_isolation;
};

describe.each(['sqlite', 'postgres'] as const)('the %s engine', (name) => {
  let e: Opened;
  beforeAll(async () => {
    e = await openEngine(name);
  }, 60_000);
  afterAll(async () => e?.close());

  it('commits all of a write or nothing of it, and releases its outbox only after a commit', async () => {
    await expect(
      e.tx.write(async (q, out) => {
        await q.insert(users).values(aUser('all-or-nothing'));
        out.then(() => e.released.push('thrown'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    // the database itself refuses the second statement (the same primary key twice)
    await expect(
      e.tx.write(async (q, out) => {
        await q.insert(users).values(aUser('all-or-nothing', 'dup-1'));
        out.then(() => e.released.push('conflict'));
        await q.insert(users).values(aUser('all-or-nothing', 'dup-1'));
      }),
    ).rejects.toThrow();
    expect(await e.tx.read((q) => countNote(q, 'all-or-nothing'))).toBe(0);
    expect(e.released).not.toContain('thrown');
    expect(e.released).not.toContain('conflict');

    let seen: Promise<number> | undefined;
    await e.tx.write(async (q, out) => {
      await q.insert(users).values([aUser('all-or-nothing'), aUser('all-or-nothing')]);
      // released after the commit: a read started there sees the rows
      out.then(() => (seen = e.tx.read((r) => countNote(r, 'all-or-nothing'))));
    });
    expect(await seen).toBe(2);
  });

  it('lets no other request in while a write awaits: no read sees its rows before the commit, no other write enters it', async () => {
    const held = gate();
    const inside = gate();
    let otherSeenInside: number | undefined;
    const first = e.tx.write(async (q) => {
      await q.insert(users).values(aUser('held'));
      inside.open();
      await held.opened;
      otherSeenInside = await countNote(q, 'other');
    });
    await inside.opened;
    let committed = false;
    void first.then(() => (committed = true));
    const read = e.tx.read(async (q) => ({ n: await countNote(q, 'held'), afterCommit: committed }));
    const other = e.tx.write((q) => q.insert(users).values(aUser('other')));
    // PostgreSQL answers the read while the write is open; SQLite holds it until the write ends, so
    // there the wait is only a pause
    await Promise.race([read, sleep(name === 'postgres' ? 5_000 : 50)]);
    held.open();
    await first;
    await other;
    expect(await read).toEqual(name === 'postgres' ? { n: 0, afterCommit: false } : { n: 1, afterCommit: true });
    // the other write's row never showed inside the first (on SQLite it could not run; on PostgreSQL
    // the first's snapshot was taken before it committed)
    expect(otherSeenInside).toBe(0);
    expect(await e.tx.read((q) => countNote(q, 'other'))).toBe(1);
  });

  it('never lets concurrent check-then-writes exceed the limit they check', async () => {
    const limit = 3;
    const tries = Array.from({ length: 8 }, () =>
      e.tx.write(async (q) => {
        const n = await countNote(q, 'limited');
        await sleep(1);
        if (n >= limit) return false;
        await q.insert(users).values(aUser('limited'));
        return true;
      }),
    );
    const results = await Promise.all(tries);
    expect(results.filter(Boolean)).toHaveLength(limit);
    expect(await e.tx.read((q) => countNote(q, 'limited'))).toBe(limit);
  });

  /**
   * Runs `take` in a transaction held open once it has taken, and again in a second one beside it;
   * `whileFirstOpen`: the second ended before the first was let go. SQLite's second waits for the
   * first to commit, so there the wait is only a pause.
   */
  async function besideAnOpenOne<R>(run: <T>(fn: (q: Q) => Promise<T>) => Promise<T>, take: (q: Q) => Promise<R>) {
    const held = gate();
    const taken = gate();
    const first = run(async (q) => {
      const r = await take(q);
      taken.open();
      await held.opened;
      return r;
    });
    await taken.opened;
    let firstLetGo = false;
    const second = run(async (q) => ({ r: await take(q), whileFirstOpen: !firstLetGo }));
    await Promise.race([second, sleep(name === 'postgres' ? 5_000 : 50)]);
    firstLetGo = true;
    held.open();
    const [a, b] = [await first, await second];
    return { first: a, second: b.r, whileFirstOpen: b.whileFirstOpen };
  }

  it('hands concurrent claims different rows, PostgreSQL without making one wait for the other', async () => {
    const codes = ['c1', 'c2'].map((id) => ({ id: `${id}-${name}`, codeHash: `${id}-${name}`, uses: 1, createdAt: NOW, expiresAt: NOW }));
    await e.tx.write((q) => q.insert(runnerEnrolmentCodes).values(codes));
    const ours = sql`${runnerEnrolmentCodes.id} in (${codes[0]!.id}, ${codes[1]!.id})`;
    const claim = (q: Q) => {
      const pick = q.select({ id: runnerEnrolmentCodes.id }).from(runnerEnrolmentCodes).where(and(eq(runnerEnrolmentCodes.used, 0), ours)).orderBy(runnerEnrolmentCodes.id).limit(1);
      return q
        .update(runnerEnrolmentCodes)
        .set({ used: 1 })
        .where(eq(runnerEnrolmentCodes.id, sql`(${pick} ${e.tx.lockSkipLocked()})`))
        .returning({ id: runnerEnrolmentCodes.id });
    };
    const { first: a, second: b, whileFirstOpen } = await besideAnOpenOne((fn) => e.tx.write(fn), claim);
    expect([...a, ...b].map((r) => r.id).sort()).toEqual(codes.map((c) => c.id).sort());
    if (name === 'postgres') expect(whileFirstOpen).toBe(true);
  });

  it('runs claims (tx.claim) with skipLockedRows: concurrent claims read different rows of a queue at once, each taken once', async () => {
    const codes = ['q1', 'q2', 'q3'].map((id) => ({ id: `${id}-${name}`, codeHash: `${id}-${name}`, uses: 1, createdAt: NOW, expiresAt: NOW }));
    await e.tx.write((q) => q.insert(runnerEnrolmentCodes).values(codes));
    const ours = sql`${runnerEnrolmentCodes.id} in (${sql.join(codes.map((c) => sql`${c.id}`), sql`, `)})`;
    const pickAndTake = async (q: Q) => {
      const [row] = await skipLockedRows(
        q.select({ id: runnerEnrolmentCodes.id }).from(runnerEnrolmentCodes).where(and(eq(runnerEnrolmentCodes.used, 0), ours)).orderBy(runnerEnrolmentCodes.id).limit(1),
        runnerEnrolmentCodes,
      );
      if (!row) return undefined;
      const taken = await q.update(runnerEnrolmentCodes).set({ used: 1 }).where(and(eq(runnerEnrolmentCodes.id, row.id), eq(runnerEnrolmentCodes.used, 0))).returning({ id: runnerEnrolmentCodes.id });
      return { id: taken[0]?.id, isolation: name === 'postgres' ? await isolationOf(q) : 'the single writer' };
    };
    const { first: a, second: b, whileFirstOpen } = await besideAnOpenOne((fn) => e.tx.claim(fn), pickAndTake);
    const third = await e.tx.claim(pickAndTake);
    // the first row to the first claim, the next to the one beside it, the last to the third: none twice
    expect([a?.id, b?.id, third?.id]).toEqual(codes.map((c) => c.id));
    expect(await e.tx.claim(pickAndTake)).toBeUndefined();
    if (name === 'postgres') {
      expect(whileFirstOpen).toBe(true);
      expect(a?.isolation).toBe('read committed');
      // every other write stays SERIALIZABLE
      expect(await e.tx.write(isolationOf)).toBe('serializable');
    }
  });

  it('runs a check-then-write under its owner\'s row lock (tx.writeLocking, lockedRows): the second waits for the first and its check sees the first\'s row', async () => {
    const owner = aUser(`owner-${name}`);
    await e.tx.write((q) => q.insert(users).values(owner));
    // the check counts the rows under a note: below the limit one more may be added
    const checkThenAdd = (note: string, limit: number) => async (q: Q) => {
      await lockedRows(q.select({ id: users.id }).from(users).where(eq(users.id, owner.id)), users);
      const n = await countNote(q, note);
      await sleep(1);
      const isolation = name === 'postgres' ? await isolationOf(q) : 'the single writer';
      if (n >= limit) return { added: false, isolation };
      await q.insert(users).values(aUser(note));
      return { added: true, isolation };
    };
    const { first: a, second: b, whileFirstOpen } = await besideAnOpenOne((fn) => e.tx.writeLocking(fn), checkThenAdd(`one-${name}`, 1));
    expect([a.added, b.added]).toEqual([true, false]);
    expect(whileFirstOpen).toBe(false);
    if (name === 'postgres') expect(a.isolation).toBe('read committed');
    // eight at once for three places: three added, whatever the interleaving
    const more = await Promise.all(Array.from({ length: 8 }, () => e.tx.writeLocking(checkThenAdd(`three-${name}`, 3))));
    expect(more.filter((r) => r.added)).toHaveLength(3);
    expect(await e.tx.read((q) => countNote(q, `three-${name}`))).toBe(3);
  });

  it('round-trips booleans, JSON, timestamps and integers past 2^31 identically', async () => {
    const big = 2 ** 40 + 3;
    const user = { ...aUser('types', `types-${name}`), emailConfirmed: true, isTemporary: false, tags: ['ä', 'b "q"', '😀'], lastSeenAt: '2026-11-27T10:00:00.123Z', failedLogins: 2 ** 31 + 1 };
    await e.tx.write(async (q) => {
      await q.insert(users).values(user);
      await q.insert(files).values([
        { id: `f1-${name}`, sha256: 'x', sizeBytes: big, name: 'a', mimeType: 'text/plain', createdAt: NOW },
        { id: `f2-${name}`, sha256: 'x', sizeBytes: big, name: 'b', mimeType: 'text/plain', createdAt: NOW },
      ]);
    });
    const row = await e.tx.read(async (q) => (await q.select().from(users).where(eq(users.id, user.id)))[0]!);
    expect({ e: row.emailConfirmed, t: row.isTemporary, l: row.isLocal, tags: row.tags, at: row.lastSeenAt, f: row.failedLogins, o: row.origin }).toEqual({
      e: true,
      t: false,
      l: true,
      tags: user.tags,
      at: user.lastSeenAt,
      f: 2 ** 31 + 1,
      o: 'staff',
    });
    // booleans compare through the column; aggregates come back as numbers on both
    const filtered = await e.tx.read((q) => q.select({ id: users.id }).from(users).where(and(eq(users.emailConfirmed, true), eq(users.note, 'types'))));
    expect(filtered).toEqual([{ id: user.id }]);
    const agg = await e.tx.read(async (q) => (await q.select({ n: sql<number>`count(*)`, total: sql<number>`sum(${files.sizeBytes})` }).from(files).where(eq(files.sha256, 'x')))[0]!);
    expect(agg).toEqual({ n: 2, total: 2 * big });
  });
});

/** Both callers wait until `n` of them arrived. */
function barrier(n: number): () => Promise<void> {
  const all = gate();
  let arrived = 0;
  return () => {
    if (++arrived === n) all.open();
    return all.opened;
  };
}

describe('the postgres engine runs a write that lost a race again', () => {
  let e: Opened;
  beforeAll(async () => {
    e = await openEngine('postgres');
  }, 60_000);
  afterAll(async () => e?.close());

  it('after a serialization failure, with a fresh outbox: only the committed attempts take effect and release theirs', async () => {
    const settled: string[] = [];
    const tx = new Transactor(e.engine, { settled: [(out) => settled.push(`${out.afterCommit.length}`)], committed: [() => undefined] });
    const bothRead = barrier(2);
    const calls: string[] = [];
    const attempt = (who: string) => {
      let tries = 0;
      return tx.write(async (q, out) => {
        calls.push(who);
        const n = await countNote(q, 'race');
        if (++tries === 1) await bothRead();
        if (n >= 1) return 'refused';
        await q.insert(users).values(aUser('race'));
        out.then(() => e.released.push(`race:${who}:${tries}`));
        return 'inserted';
      });
    };
    const results = await Promise.all([attempt('a'), attempt('b')]);
    expect(results.sort()).toEqual(['inserted', 'refused']);
    // at least one attempt ran again (more if the retry met the winner still open)
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(await e.tx.read((q) => countNote(q, 'race'))).toBe(1);
    // one release, from an attempt that committed; the one that lost the race was rolled back
    const released = e.released.filter((r) => r.startsWith('race:'));
    expect(released).toHaveLength(1);
    // the settled hooks saw every attempt's outbox, the rolled-back ones too
    expect(settled).toHaveLength(calls.length);
  });

  it('after a deadlock, each write applied once', async () => {
    await e.tx.write((q) => q.insert(users).values([aUser('dl', 'dl-a'), aUser('dl', 'dl-b')]));
    const bothLocked = barrier(2);
    let calls = 0;
    const bump = (first: string, second: string) => {
      let tries = 0;
      return e.tx.write(async (q) => {
        calls++;
        await q.update(users).set({ failedLogins: sql`${users.failedLogins} + 1` }).where(eq(users.id, first));
        if (++tries === 1) await bothLocked();
        await q.update(users).set({ failedLogins: sql`${users.failedLogins} + 1` }).where(eq(users.id, second));
      });
    };
    await Promise.all([bump('dl-a', 'dl-b'), bump('dl-b', 'dl-a')]);
    expect(calls).toBeGreaterThanOrEqual(3);
    const rows = await e.tx.read((q) => q.select({ id: users.id, n: users.failedLogins }).from(users).where(eq(users.note, 'dl')).orderBy(users.id));
    expect(rows).toEqual([
      { id: 'dl-a', n: 2 },
      { id: 'dl-b', n: 2 },
    ]);
  });

  it('after the predicate-lock table ran out ("out of shared memory"), once the table has room', async () => {
    let calls = 0;
    // what PostgreSQL throws (drizzle wraps it as the cause) when max_pred_locks_per_transaction is used up
    const full = Object.assign(new Error('out of shared memory'), { code: '53200', hint: 'You might need to increase max_pred_locks_per_transaction.' });
    await e.tx.write(async (q) => {
      if (++calls === 1) throw Object.assign(new Error('Failed query: select …'), { cause: full });
      await q.insert(users).values(aUser('pred-full'));
    });
    expect(calls).toBe(2);
    expect(await e.tx.read((q) => countNote(q, 'pred-full'))).toBe(1);
  });

  it('gives up after a bounded number of attempts, throwing the failure', async () => {
    let calls = 0;
    const lost = Object.assign(new Error('could not serialize access'), { code: '40001' });
    const bounded = new PostgresEngine((e.engine as PostgresEngine).pool, { maxAttempts: 4, exclusiveAfter: 2 });
    await expect(
      bounded.transaction(async () => {
        calls++;
        throw lost;
      }),
    ).rejects.toBe(lost);
    expect(calls).toBe(4);
    // any other failure is not tried again
    calls = 0;
    await expect(
      e.tx.write(async () => {
        calls++;
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(calls).toBe(1);
  });

  it('runs a write that kept losing alone: after the writes in progress, which it sees committed', async () => {
    const pool = (e.engine as PostgresEngine).pool;
    const engine = new PostgresEngine(pool, { exclusiveAfter: 1 });
    const inside = gate();
    const held = gate();
    const first = engine.transaction(async (q) => {
      await q.insert(users).values(aUser('alone', 'alone-first'));
      inside.open();
      await held.opened;
    });
    await inside.opened;
    let tries = 0;
    const second = engine.transaction(async (q) => {
      if (++tries === 1) throw Object.assign(new Error('could not serialize access'), { code: '40001' });
      return (await q.select({ id: users.id }).from(users).where(eq(users.id, 'alone-first'))).length;
    });
    // the second's exclusive attempt waits for the first, which holds the writes lock shared
    const waiting = async () => Number((await pool.query(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`)).rows[0].n);
    let secondDone = false;
    void second.then(() => (secondDone = true));
    while (!secondDone && (await waiting()) < 1) await sleep(5);
    held.open();
    await first;
    expect(await second).toBe(1);
    expect(tries).toBe(2);
  });

  it('refuses to commit a write that caught a failed statement and went on', async () => {
    await e.tx.write((q) => q.insert(users).values(aUser('caught', 'caught-1')));
    await expect(
      e.tx.write(async (q) => {
        await q.insert(users).values(aUser('caught'));
        await q.insert(users).values(aUser('caught', 'caught-1')).catch(() => undefined);
        return 'went on';
      }),
    ).rejects.toThrow(/rolled the write back/);
    expect(await e.tx.read((q) => countNote(q, 'caught'))).toBe(1);
  });
});
