import { eq } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applyCacheNotes } from '../src/cluster/cache-notes.js';
import { appendToEventLog, eventHooks, type WorkKind } from '../src/cluster/event-log.js';
import { ClusterNode } from '../src/cluster/node.js';
import { ADVISORY_KEYS, ADVISORY_NAMESPACE, openPostgres, type PostgresEngine } from '../src/db/postgres-engine.js';
import { openDatabase } from '../src/db/database.js';
import { events, files, servers, trials } from '../src/db/schema.js';
import { Transactor, type TransactionHooks } from '../src/db/transactor.js';
import { event, EventBus, type BusMessage } from '../src/events/bus.js';
import { WorkSignal } from '../src/modules/judging/lease.js';
import { freshDatabase, type TestDatabase } from './pg-cluster.js';

/**
 * Several judge servers on one PostgreSQL (docs/storage.md, "Several servers"), each stood for by
 * an engine, a transactor and a ClusterNode of its own in this one process: events committed on
 * any reach every server's bus once and in commit order, one server runs the workers and another
 * takes over when it dies, heartbeats make the cluster view, and queued work wakes every server.
 */

const log = pino({ level: 'silent' });
let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
}, 60_000);
afterAll(async () => db?.drop());

/** Waits until `cond` holds (checked every 20 ms), failing after `ms`: a bound on waiting, not a figure. */
async function until(cond: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((go) => setTimeout(go, 20));
  }
}

interface Server {
  name: string;
  engine: PostgresEngine;
  tx: Transactor;
  node: ClusterNode;
  bus: EventBus;
  /** The `note` of every event its bus received, in order. */
  got: string[];
  /** Its workers' starts and stops. */
  workers: string[];
  woken: WorkKind[];
  signals: Record<WorkKind, WorkSignal>;
}

const clock = { t: Date.parse('2026-11-27T10:00:00.000Z'), now() { return new Date(this.t); } };
const opened: Server[] = [];

async function server(name: string, extra: TransactionHooks['beforeCommit'] = []): Promise<Server> {
  const engine = await openPostgres(db.url, { poolSize: 4 });
  const bus = new EventBus();
  const hooks = eventHooks('postgres', bus, clock, name);
  const tx = new Transactor(engine, { ...hooks, beforeCommit: [...(hooks.beforeCommit ?? []), ...extra] });
  const s = { name, engine, tx, bus, got: [] as string[], workers: [] as string[], woken: [] as WorkKind[] } as unknown as Server;
  s.signals = { jobs: new WorkSignal(), trials: new WorkSignal() };
  bus.subscribe((m) => {
    if (m.kind === 'event') s.got.push((m.event.data as { note: string }).note);
  });
  s.node = await ClusterNode.start({
    engine,
    tx,
    bus,
    clock,
    log,
    version: '9.9.9',
    workers: { start: () => s.workers.push('start'), stop: () => s.workers.push('stop') },
    onWork: (kind) => {
      s.woken.push(kind);
      s.signals[kind].notify();
    },
    pollMs: 200,
    leaderRetryMs: 200,
  });
  opened.push(s);
  return s;
}

async function closeServer(s: Server): Promise<void> {
  opened.splice(opened.indexOf(s), 1);
  await s.node.close();
  await s.engine.close();
}

afterEach(async () => {
  for (const s of [...opened]) await closeServer(s);
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  await admin.query('TRUNCATE events RESTART IDENTITY; DELETE FROM servers; DELETE FROM trials; DELETE FROM files');
  await admin.end();
});

/** One event whose data carries `note`: what the buses record. */
const noted = (note: string) => event('rankingChanged', { note } as never, { kind: 'permission', key: 'ranking:read', activityId: 'a1' });

const logged = async (s: Server) => (await s.tx.read(async (q) => q.select({ message: events.message }).from(events).orderBy(events.id))).map((r) => (JSON.parse(r.message) as { event: { data: { note: string } } }).event.data.note);

describe('the event log', () => {
  it('brings every committed message to every server once, in commit order', async () => {
    const [a, b, c] = [await server('a'), await server('b'), await server('c')];
    const writes = [];
    for (let i = 0; i < 30; i++) {
      const on = [a, b, c][i % 3]!;
      // two events in one write, and writes of three servers committing concurrently
      writes.push(on.tx.write(async (_q, out) => {
        out.emit(noted(`${on.name}${i}-1`));
        out.emit(noted(`${on.name}${i}-2`));
      }));
    }
    await Promise.all(writes);
    await until(() => [a, b, c].every((s) => s.got.length >= 60));
    const order = await logged(a);
    expect(order).toHaveLength(60);
    for (const s of [a, b, c]) expect(s.got).toEqual(order);
    // a write's messages stay together and in their order
    for (let i = 0; i < order.length; i += 2) expect(order[i + 1]).toBe(order[i]!.replace(/-1$/, '-2'));
    await until(() => a.node.reader!.cursor > 0);
    expect(new Set(order).size).toBe(60);
  });

  it('keeps every message shape through JSON', async () => {
    const [a, b] = [await server('a'), await server('b')];
    const seen: BusMessage[] = [];
    // what b's bus is given, whole
    const sent: BusMessage[] = [
      { kind: 'event', event: event('rankingChanged', { note: 'x', nested: { n: 1.5, list: [null, true, 'é'] } } as never, { kind: 'users', userIds: ['u1', 'u2'] }) },
      { kind: 'event', event: event('rankingChanged', { note: 'y' } as never, { kind: 'permission', key: 'ranking:read', activityId: null, anywhere: true, alsoUsers: ['u3'], alsoRequires: ['ranking:read'], unless: 'ranking:read' }) },
      { kind: 'event', event: event('rankingChanged', { note: 'z' } as never, { kind: 'signedIn' }) },
      { kind: 'sessionsEnded', sessionIds: ['s1', 's2'], reason: 'blocked' },
    ];
    const unsubscribe = b.bus.subscribe((m) => seen.push(m));
    await a.tx.write(async (_q, out) => void out.messages.push(...sent));
    await until(() => seen.length === 4);
    unsubscribe();
    expect(seen).toEqual(sent);
  });

  it('publishes nothing of a write that rolled back', async () => {
    const [a, b] = [await server('a'), await server('b')];
    await expect(a.tx.write(async (_q, out) => {
      out.emit(noted('rolled back'));
      throw new Error('no');
    })).rejects.toThrow('no');
    // a statement failing after the events were appended rolls them back too
    await expect(a.tx.write(async (q, out) => {
      out.emit(noted('failed at commit'));
      await q.insert(servers).values({ id: 'dup', host: 'h', pid: 1, version: 'v', startedAt: 'x', heartbeatAt: 'x' });
      await q.insert(servers).values({ id: 'dup', host: 'h', pid: 1, version: 'v', startedAt: 'x', heartbeatAt: 'x' });
    })).rejects.toThrow();
    await a.tx.write(async (_q, out) => out.emit(noted('after')));
    await until(() => a.got.includes('after') && b.got.includes('after'));
    expect(a.got).toEqual(['after']);
    expect(b.got).toEqual(['after']);
    expect(await logged(a)).toEqual(['after']);
  });

  it('delivers writes that drew their ids in one order and committed in another without skipping one', async () => {
    // a holds its transaction open after appending (ids drawn), until `release`
    let release!: () => void;
    const held = new Promise<void>((go) => (release = go));
    let appended!: () => void;
    const drawn = new Promise<void>((go) => (appended = go));
    // only the write under test: the server's own heartbeat writes carry no messages
    const hold = async (_q: unknown, out: { messages: unknown[] }) => {
      if (!out.messages.length) return;
      appended();
      await held;
    };
    const a = await server('a', [hold]);
    const b = await server('b');
    const first = a.tx.write(async (_q, out) => out.emit(noted('first')));
    await drawn;
    const second = b.tx.write(async (_q, out) => out.emit(noted('second')));
    // b's write waits for the events lock a holds: it cannot take an id until a commits
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    const waiting = async () => Number((await admin.query<{ n: unknown }>(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid = $2 AND NOT granted`, [ADVISORY_NAMESPACE, ADVISORY_KEYS.events])).rows[0]!.n) === 1;
    let c: Server;
    try {
      await until(waiting);
      // a third server that reads meanwhile sees neither, so it cannot move its cursor past a's id
      c = await server('c');
      await c.node.reader!.wake();
      expect(c.got).toEqual([]);
    } finally {
      await admin.end();
      release();
    }
    await Promise.all([first, second]);
    await until(() => [a, b, c].every((s) => s.got.length === 2));
    for (const s of [a, b, c]) expect(s.got).toEqual(['first', 'second']);
  });

  it("carries a write's cache notes to every server ahead of its events, in commit order, and a submission's not back to the writer", async () => {
    const [a, b, c] = [await server('a'), await server('b'), await server('c')];
    const applied = new Map<string, string[]>();
    for (const s of [a, b, c]) {
      applied.set(s.name, []);
      applyCacheNotes(s.bus, s.name, {
        permissions: () => applied.get(s.name)!.push('permissions'),
        settings: () => applied.get(s.name)!.push('settings'),
        user: (userId) => applied.get(s.name)!.push(`user ${userId}`),
        sessionsEnded: (ids) => applied.get(s.name)!.push(`sessions ${ids.join(',')}`),
        submission: (n) => applied.get(s.name)!.push(`submission ${n.activityId}/${n.userId}/${n.seriesProblemId}`),
        clicsEvents: (activityId) => applied.get(s.name)!.push(`clics ${activityId}`),
      });
    }
    await a.tx.write(async (_q, out) => {
      out.touchPermissions();
      // noted once however often a write touches grants
      out.touchPermissions();
      out.note({ what: 'submission', activityId: 'act', userId: 'u1', seriesProblemId: 'sp' });
      out.endSessions(['s1'], 'blocked');
    });
    await b.tx.write(async (_q, out) => out.note({ what: 'settings' }));
    // a rolled-back write notes nothing
    await expect(c.tx.write(async (_q, out) => {
      out.note({ what: 'user', userId: 'u2' });
      throw new Error('rolled back');
    })).rejects.toThrow('rolled back');
    await until(() => applied.get('a')!.length === 3 && applied.get('b')!.length === 4 && applied.get('c')!.length === 4);
    // the writer drops its own caches again (its reader may see the rows before its post-commit
    // refresh ran), but does not recompute a submission's standings twice
    expect(applied.get('a')).toEqual(['permissions', 'sessions s1', 'settings']);
    // a write's notes come ahead of its own messages, and the writes come in commit order
    expect(applied.get('b')).toEqual(['permissions', 'submission act/u1/sp', 'sessions s1', 'settings']);
    expect(applied.get('c')).toEqual(['permissions', 'submission act/u1/sp', 'sessions s1', 'settings']);
  });

  it('appends nothing for a write without messages', async () => {
    const a = await server('a');
    const append = appendToEventLog(clock, 'a');
    await a.tx.write(async (q, out) => append(q, out));
    expect(await logged(a)).toEqual([]);
  });
});

describe('the leader', () => {
  const leaders = () => opened.filter((s) => s.node.leadership.isLeader);

  it('is one server at a time, and another takes over within seconds when it closes', async () => {
    const all = [await server('a'), await server('b'), await server('c')];
    await until(() => leaders().length === 1);
    // every server has tried at least once since: still only one
    await Promise.all(all.map((s) => s.node.leadership.tick()));
    expect(leaders()).toHaveLength(1);
    const first = leaders()[0]!;
    expect(first.workers).toEqual(['start']);
    await closeServer(first);
    expect(first.workers).toEqual(['start', 'stop']);
    await until(() => leaders().length === 1, 10_000);
    const next = leaders()[0]!;
    expect(next).not.toBe(first);
    expect(next.workers).toEqual(['start']);
    for (const s of all.filter((x) => x !== first && x !== next)) expect(s.workers).toEqual([]);
  });

  it('stops its workers at once when its connection is lost, and another leads', async () => {
    const [a, b] = [await server('a'), await server('b')];
    await until(() => leaders().length === 1);
    const first = leaders()[0]!;
    const other = first === a ? b : a;
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    // the backend holding the leader lock is the leader's connection: cut it, as a dead network would
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid = $2 AND granted`,
      [ADVISORY_NAMESPACE, ADVISORY_KEYS.leader],
    );
    await admin.end();
    await until(() => first.workers.length === 2);
    expect(first.workers).toEqual(['start', 'stop']);
    await until(() => other.node.leadership.isLeader || first.node.leadership.isLeader, 10_000);
    expect(leaders()).toHaveLength(1);
    // whoever leads now runs the workers, and the one who lost the lock did stop
    const now = leaders()[0]!;
    expect(now.workers.at(-1)).toBe('start');
  });

  it('is the one server at once on SQLite, whose events go straight to its bus', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judge-cluster-'));
    const h = openDatabase(join(dir, 'judge.db'));
    const bus = new EventBus();
    const got: string[] = [];
    bus.subscribe((m) => m.kind === 'event' && got.push((m.event.data as { note: string }).note));
    const tx = new Transactor(h.engine, eventHooks('sqlite', bus, clock, 'local'));
    const ran: string[] = [];
    const node = await ClusterNode.start({ engine: h.engine, tx, bus, clock, log, version: '1', workers: { start: () => ran.push('start'), stop: () => ran.push('stop') } });
    try {
      expect(node.leadership.isLeader).toBe(true);
      expect(ran).toEqual(['start']);
      await tx.write(async (_q, out) => out.emit(noted('local')));
      // published in the commit's own turn, and nothing written to the event log
      expect(got).toEqual(['local']);
      expect(await tx.read(async (q) => q.select().from(events))).toEqual([]);
      const view = await node.view();
      expect(view.servers).toHaveLength(1);
      expect(view.leader).toBe(view.servers[0]!.id);
    } finally {
      await node.close();
      await h.engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(ran).toEqual(['start', 'stop']);
  });
});

describe('the servers table', () => {
  it('shows the servers alive, the leader and how far behind each hub is', async () => {
    const [a, b, c] = [await server('a'), await server('b'), await server('c')];
    await until(() => opened.some((s) => s.node.leadership.isLeader));
    const leader = opened.find((s) => s.node.leadership.isLeader)!;
    // c's reader stops: its cursor stays where it was
    await c.node.reader!.close();
    for (let i = 0; i < 3; i++) await a.tx.write(async (_q, out) => out.emit(noted(`n${i}`)));
    await until(() => a.got.length === 3 && b.got.length === 3);
    await Promise.all([a, b, c].map((s) => s.node.presence!.beat()));
    let view = await a.node.view();
    expect(view.servers.map((s) => s.id).sort()).toEqual([a, b, c].map((s) => s.node.presence!.id).sort());
    expect(view.leader).toBe(leader.node.presence!.id);
    expect(view.servers.every((s) => s.pid === process.pid && s.version === '9.9.9')).toBe(true);
    const lag = (s: Server) => view.servers.find((x) => x.id === s.node.presence!.id)!.lag;
    expect([lag(a), lag(b), lag(c)]).toEqual([0, 0, 3]);
    expect(view.newestEventId).toBe(a.node.reader!.cursor);

    // 20 s later only a and b have beaten: c counts as gone
    clock.t += 20_000;
    await Promise.all([a, b].map((s) => s.node.presence!.beat()));
    view = await b.node.view();
    expect(view.servers.map((s) => s.id).sort()).toEqual([a, b].map((s) => s.node.presence!.id).sort());

    // a closing server removes its row
    await closeServer(b);
    const rows = await a.tx.read(async (q) => q.select({ id: servers.id }).from(servers).where(eq(servers.id, b.node.presence!.id)));
    expect(rows).toEqual([]);
  });
});

describe('work queued on one server', () => {
  const aFile = { id: 'f1', sha256: 'x', sizeBytes: 1, name: 'p.zip', mimeType: 'application/zip', createdAt: '2026-11-27T10:00:00.000Z' };
  const aTrial = (id: string, state = 'queued') => ({ id, state, problemType: 'pass-fail', packageFileId: 'f1', createdAt: '2026-11-27T10:00:00.000Z' });

  it("wakes a long poll held on another server, once per commit, and not for a rollback or other states", async () => {
    const [a, b] = [await server('a'), await server('b')];
    await a.tx.write(async (q) => void (await q.insert(files).values(aFile)));
    const polled = b.signals.trials.wait(60_000);
    await a.tx.write(async (q) => void (await q.insert(trials).values([aTrial('t1'), aTrial('t2')])));
    await polled;
    await until(() => a.woken.length === 1 && b.woken.length === 1);
    expect(b.woken).toEqual(['trials']);
    // taken (running) and a rolled-back queue wake nobody
    await a.tx.write(async (q) => void (await q.update(trials).set({ state: 'running' }).where(eq(trials.id, 't1'))));
    await expect(a.tx.write(async (q) => {
      await q.insert(trials).values(aTrial('t3'));
      throw new Error('no');
    })).rejects.toThrow('no');
    // back in the queue: a wake-up; notifications come in commit order, so none came before it
    await a.tx.write(async (q) => void (await q.update(trials).set({ state: 'queued' }).where(eq(trials.id, 't1'))));
    await until(() => b.woken.length >= 2);
    expect(b.woken).toEqual(['trials', 'trials']);
  });
});
