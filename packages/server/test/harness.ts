import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ops } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import { initDataDir, loadConfig, startApp, type ConfigOverrides, type JudgeApp } from '@judge/server';
import { count, getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as schema from '../src/db/schema.js';
import type { PoolOptions } from '../src/offloop/pool.js';
import { freshDatabase, testAppsOnPostgres, type TestDatabase } from './pg-cluster.js';
import type { Clock } from '../src/util.js';

export const ADMIN_PASSWORD = 'admin-password-for-tests';

/**
 * Whether this run's test apps keep their data in PostgreSQL (JUDGE_TEST_DATABASE, pg-cluster.ts),
 * for the few tests about what only one engine does (docs/storage.md lists them).
 */
export const onPostgres = testAppsOnPostgres();

/** Settings every test server shares: cheap hashing, and limits high enough for a test's own traffic. */
export const TEST_CONFIG: ConfigOverrides = {
  host: '127.0.0.1',
  port: 0,
  logLevel: 'warn',
  auth: { argon2MemoryKib: 1024, argon2Iterations: 1, loginAttemptsPerMinute: 10_000, loginFailuresPerMinute: 10_000, accountLoginFailuresPerMinute: 10_000 },
};

function merge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) {
    out[k] = v && typeof v === 'object' && !Array.isArray(v) && typeof a[k] === 'object' ? merge(a[k] as Record<string, unknown>, v as Record<string, unknown>) : v;
  }
  return out;
}

export interface TestUser {
  id: string;
  username: string;
  password: string;
}

/** A user and a client signed in as them. */
export type Party = { u: TestUser; c: JudgeClient };

/** The tables of schema.ts by their SQL names, for `count`. */
const TABLES = new Map<string, SQLiteTable>(Object.values(schema).flatMap((v) => (v instanceof SQLiteTable ? [[getTableName(v), v] as const] : [])));

/**
 * On PostgreSQL (JUDGE_TEST_DATABASE, pg-cluster.ts) the database of a data directory: a fresh one
 * the first time, named in the directory's judge.json, so that a server started again on the same
 * directory (a restart test, a CLI child) finds the same data, as it would find judge.db.
 */
async function postgresFor(dataDir: string): Promise<TestDatabase | undefined> {
  const file = join(dataDir, 'judge.json');
  const settings = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  if (typeof settings.database === 'string' && settings.database) return undefined;
  const db = await freshDatabase();
  writeFileSync(file, JSON.stringify({ ...settings, database: db.url }, null, 2));
  return db;
}

/**
 * With JUDGE_TEST_LOGS=DIR, a stopping test server's log is copied into DIR (named by process and
 * data directory): what an answer's traceId points at when a test saw a 500, which goes with the
 * data directory otherwise.
 */
function keepLog(dataDir: string): void {
  const dir = process.env.JUDGE_TEST_LOGS;
  const log = join(dataDir, 'logs', 'judge.log');
  if (!dir || !existsSync(log)) return;
  mkdirSync(dir, { recursive: true });
  copyFileSync(log, join(dir, `${process.pid}-${basename(dataDir)}.log`));
}

/**
 * A real server on an ephemeral port over a real SQLite file in a fresh temp directory, or with
 * JUDGE_TEST_DATABASE=postgres over a fresh PostgreSQL database of its own (dropped with the
 * directory when the server stops).
 */
export class TestJudge {
  private constructor(
    readonly app: JudgeApp,
    readonly dataDir: string,
    private readonly keepDir: boolean,
    private readonly database?: TestDatabase,
  ) {}

  static async start(opts: { config?: ConfigOverrides; clock?: Clock; dataDir?: string; offloop?: PoolOptions } = {}): Promise<TestJudge> {
    const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'judge-test-'));
    const database = testAppsOnPostgres() ? await postgresFor(dataDir) : undefined;
    const config = loadConfig(dataDir, merge(TEST_CONFIG as Record<string, unknown>, (opts.config ?? {}) as Record<string, unknown>) as ConfigOverrides, {});
    await initDataDir(dataDir, config, async () => ADMIN_PASSWORD);
    const app = await startApp({ dataDir, config, ...(opts.clock ? { clock: opts.clock } : {}), ...(opts.offloop ? { offloop: opts.offloop } : {}) });
    return new TestJudge(app, dataDir, !!opts.dataDir, database);
  }

  get url(): string {
    return this.app.url;
  }

  /** A client with no credentials. */
  anonymous(): JudgeClient {
    return new JudgeClient({ baseUrl: this.url });
  }

  async admin(): Promise<JudgeClient> {
    const c = this.anonymous();
    await c.login('admin', ADMIN_PASSWORD);
    return c;
  }

  /** Creates an account through the API (as admin) and returns its issued credentials. */
  async user(username: string, extra: { email?: string; firstName?: string; lastName?: string } = {}): Promise<TestUser> {
    const admin = await this.admin();
    const issued = await admin.call(ops.createUser, { body: { username, ...extra } });
    return { id: issued.userId, username: issued.username, password: issued.password };
  }

  async signIn(u: { username: string; password: string }, how: 'bearer' | 'cookie' = 'bearer'): Promise<JudgeClient> {
    const c = this.anonymous();
    if (how === 'cookie') await c.loginWithCookie(u.username, u.password);
    else await c.login(u.username, u.password);
    return c;
  }

  /** Gives a user a built-in or named role, system-wide or in an activity, as admin. */
  async grant(userId: string, roleKeyOrName: string, activityId?: string, overrideSystem?: boolean) {
    const admin = await this.admin();
    const roles = await admin.call(ops.listRoles, { query: activityId ? { activityId } : {} });
    const role = roles.find((r) => r.builtInKey === roleKeyOrName || r.name === roleKeyOrName);
    if (!role) throw new Error(`no role ${roleKeyOrName}`);
    return admin.call(ops.createGrant, { body: { userId, roleId: role.id, ...(activityId ? { activityId } : {}), ...(overrideSystem ? { overrideSystem } : {}) } });
  }

  /** An activity row with defaults, for tests of grants and roles that need only an activity scope. */
  async insertActivity(slug: string, name = slug): Promise<string> {
    const id = crypto.randomUUID();
    const now = new Date().toISOString();
    await this.app.deps.tx.write((q) => q.insert(schema.activities).values({ id, slug, slugKey: slug.toLowerCase(), name, createdAt: now, publishedAt: now }));
    return id;
  }

  /** Counts rows of a table (by its SQL name), to prove a refused request changed nothing. */
  async count(table: string): Promise<number> {
    const t = TABLES.get(table);
    if (!t) throw new Error(`no table ${table} in schema.ts`);
    return (await this.app.deps.tx.read((q) => q.select({ n: count() }).from(t)))[0]!.n;
  }

  /** Every row of a table (by its SQL name) as the services read it, in the order of its columns' values: the same on both engines. */
  async rows(table: string): Promise<Record<string, unknown>[]> {
    const t = TABLES.get(table);
    if (!t) throw new Error(`no table ${table} in schema.ts`);
    return this.app.deps.tx.read((q) => q.select().from(t).orderBy(...Object.values(getTableColumns(t))));
  }

  /**
   * Rows of a raw SQL statement with `?` placeholders, on either engine (the statement must be SQL
   * both understand): for tests that look at or set up rows no service reads or writes.
   */
  async query<R = Record<string, unknown>>(statement: string, ...args: unknown[]): Promise<R[]> {
    const parts = statement.split('?');
    const built = sql.join(parts.flatMap((p, i) => (i === 0 ? [sql.raw(p)] : [sql`${args[i - 1]}`, sql.raw(p)])));
    if (this.app.deps.tx.engineName === 'sqlite') {
      // better-sqlite3 refuses to read rows from a statement that returns none
      const returns = /^\s*(select|with)\b|\breturning\b/i.test(statement);
      const q = (t: unknown) => t as { all(s: SQL): Promise<R[]>; run(s: SQL): Promise<unknown> };
      return this.app.deps.tx.write(async (t) => (returns ? q(t).all(built) : (await q(t).run(built), [])));
    }
    return this.app.deps.tx.write(async (q) => (await (q as unknown as { execute(s: SQL): Promise<{ rows: R[] }> }).execute(built)).rows);
  }

  /**
   * Waits until every event committed so far has reached this server's bus, and so its socket hub.
   * SQLite publishes a write's events at its commit; PostgreSQL through the event log, which the
   * server reads a moment later (cluster/event-log.ts): there a note for a user no one is is written
   * after them, and seen on the bus once everything before it was.
   */
  async delivered(): Promise<void> {
    if (this.app.deps.tx.engineName === 'sqlite') return;
    const userId = `delivered-${crypto.randomUUID()}`;
    let off = () => {};
    const seen = new Promise<void>((resolve) => {
      off = this.app.deps.bus.subscribe((m) => {
        if (m.kind === 'cache' && m.note.what === 'user' && m.note.userId === userId) resolve();
      });
    });
    try {
      await this.app.deps.tx.write(async (_q, out) => out.note({ what: 'user', userId }));
      await seen;
    } finally {
      off();
    }
  }

  async stop(): Promise<void> {
    await this.app.close();
    keepLog(this.dataDir);
    if (!this.keepDir) {
      rmSync(this.dataDir, { recursive: true, force: true });
      // a kept directory keeps its database too: a test may start a server on it again
      await this.database?.drop();
    }
  }
}

/** A clock a test moves by hand. */
export class ManualClock implements Clock {
  constructor(private t = new Date('2026-11-22T08:00:00.000Z')) {}
  now(): Date {
    return new Date(this.t);
  }
  advance(seconds: number): void {
    this.t = new Date(this.t.getTime() + seconds * 1000);
  }
  set(d: Date): void {
    this.t = d;
  }
}

export function writeTemp(name: string, content: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'judge-file-'));
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

/** Sends a raw request, for what the typed client cannot express (bad JSON, wrong types, odd headers). */
export async function raw(url: string, init: RequestInit & { token?: string } = {}): Promise<{ status: number; headers: Headers; body: any; text: string }> {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  const res = await fetch(url, { ...init, headers });
  const text = await res.text();
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}
