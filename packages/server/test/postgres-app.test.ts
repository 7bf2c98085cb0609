import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import { initDataDir, loadConfig, NotInitialised, startApp, type JudgeApp } from '@judge/server';
import { isPostgresUrl, maskDatabaseUrl } from '../src/db/database-url.js';
import { doctor } from '../src/ops/doctor.js';
import { OpsError } from '../src/ops/errors.js';
import { resetPassword } from '../src/ops/reset-password.js';
import { isStorageFull } from '../src/http/storage-full.js';
import { ADMIN_PASSWORD, TEST_CONFIG } from './harness.js';
import { freshDatabase, type TestDatabase } from './pg-cluster.js';

const SECRET = 'not-for-the-log-9d41';

/** The test database's URL with a password in it: the throw-away cluster trusts local connections, so any password is accepted. */
function withPassword(url: string): string {
  const u = new URL(url);
  u.password = SECRET;
  return u.toString();
}

function capturingLog() {
  const text: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      text.push(chunk.toString());
      done();
    },
  });
  return { log: pino({ level: 'info' }, sink), text };
}

describe('the database setting', () => {
  it('tells a PostgreSQL URL from the SQLite default and masks its password wherever it sits', () => {
    expect(isPostgresUrl('')).toBe(false);
    expect(isPostgresUrl('postgres://h/db')).toBe(true);
    expect(isPostgresUrl('postgresql://h/db')).toBe(true);
    expect(maskDatabaseUrl(`postgres://judge:${SECRET}@db.example/judge`)).toBe('postgres://judge:***@db.example/judge');
    expect(maskDatabaseUrl(`postgresql://judge@h/db?password=${SECRET}&sslmode=require`)).toBe('postgresql://judge@h/db?password=***&sslmode=require');
    expect(maskDatabaseUrl(`postgres://judge:${SECRET}@[bad`)).not.toContain(SECRET);
  });

  it('is empty by default, takes JUDGE_DATABASE, and refuses what is not a PostgreSQL URL without repeating it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'judge-dbsetting-'));
    try {
      expect(loadConfig(dir, {}, {}).database).toBe('');
      expect(loadConfig(dir, {}, { JUDGE_DATABASE: 'postgres://h/db' }).database).toBe('postgres://h/db');
      let message = '';
      try {
        loadConfig(dir, {}, { JUDGE_DATABASE: `mysql://judge:${SECRET}@h/db` });
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toMatch(/^invalid configuration: database: /);
      expect(message).not.toContain(SECRET);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps 40 connections a server unless databasePoolSize (JUDGE_DATABASE_POOL_SIZE) says otherwise, and refuses a pool of none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'judge-dbsetting-'));
    try {
      expect(loadConfig(dir, {}, {}).databasePoolSize).toBe(40);
      expect(loadConfig(dir, {}, { JUDGE_DATABASE_POOL_SIZE: '12' }).databasePoolSize).toBe(12);
      expect(() => loadConfig(dir, {}, { JUDGE_DATABASE_POOL_SIZE: '0' })).toThrow(/^invalid configuration: databasePoolSize: /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("counts PostgreSQL's disk_full (53100) as storage full, also wrapped by drizzle", () => {
    expect(isStorageFull({ code: '53100' })).toBe(true);
    expect(isStorageFull(new Error('failed query', { cause: { code: '53100' } }))).toBe(true);
    expect(isStorageFull({ code: '53200' })).toBe(false);
  });
});

describe('a judge on PostgreSQL', () => {
  /** A pool small enough that a burst of requests fills it. */
  const POOL = 3;
  let db: TestDatabase;
  let dir: string;
  let app: JudgeApp;
  const captured = capturingLog();

  beforeAll(async () => {
    db = await freshDatabase();
    dir = mkdtempSync(join(tmpdir(), 'judge-pg-app-'));
    const config = loadConfig(dir, { ...TEST_CONFIG, database: withPassword(db.url), databasePoolSize: POOL }, {});
    const first = await initDataDir(dir, config, async () => ADMIN_PASSWORD);
    expect(first.created).toBe(true);
    // a second init finds the admin and asks no password
    expect(await initDataDir(dir, config, async () => expect.fail('asked for a password again'))).toEqual({ created: false, adminId: first.adminId });
    app = await startApp({ dataDir: dir, config, logger: captured.log });
  });

  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
    await db?.drop();
  });

  it('keeps no SQLite file, serves from the database, and shows its URL only masked', async () => {
    expect(app.deps.tx.engineName).toBe('postgres');
    expect(existsSync(join(dir, 'judge.db'))).toBe(false);
    expect(app.database).toBe(maskDatabaseUrl(withPassword(db.url)));
    expect(app.database).toContain('***');
    const c = new JudgeClient({ baseUrl: app.url });
    await c.login('admin', ADMIN_PASSWORD);
    const created = await c.call(ops.createUser, { body: { username: 'pg-user' } });
    expect((await c.call(ops.getManagedUser, { params: { id: created.userId } })).username).toBe('pg-user');
    const log = captured.text.join('');
    expect(log).toContain('"database":"postgresql://judge:***@');
    expect(log).not.toContain(SECRET);
  });

  it('answers a burst of requests on no more connections than databasePoolSize, and two of its own', async () => {
    const c = new JudgeClient({ baseUrl: app.url });
    await c.login('admin', ADMIN_PASSWORD);
    const answers = await Promise.all(Array.from({ length: 30 }, () => c.call(ops.listManagedUsers, { query: {} })));
    expect(answers.every((a) => a.items.length > 0)).toBe(true);
    const check = new pg.Client({ connectionString: db.url });
    await check.connect();
    try {
      const { rows } = await check.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
      // the pool's connections stay open while idle (for 10 s), the event reader's and the leadership's always
      expect(rows[0]!.n).toBeGreaterThanOrEqual(POOL);
      expect(rows[0]!.n).toBeLessThanOrEqual(POOL + 2);
    } finally {
      await check.end();
    }
  });

  it('never returns the URL from the API', async () => {
    const c = new JudgeClient({ baseUrl: app.url });
    await c.login('admin', ADMIN_PASSWORD);
    const answers = JSON.stringify([await c.call(ops.getInstance, {}), await (await fetch(`${app.url}/api/v1/health`)).json()]);
    expect(answers).not.toContain(SECRET);
    expect(answers).not.toContain(db.url.split('?')[0]);
  });

  it('refuses the SQLite-file commands (doctor, reset-password), naming the database masked', async () => {
    const refusals: [string, () => Promise<unknown>][] = [
      ['doctor', () => doctor(dir, { repair: false })],
      ['reset-password', () => resetPassword(dir, 'admin')],
    ];
    // the commands read the setting from judge.json (or JUDGE_DATABASE), not from a running server
    writeFileSync(join(dir, 'judge.json'), JSON.stringify({ database: withPassword(db.url) }));
    for (const [command, call] of refusals) {
      const e = await call().then(
        () => expect.fail(`${command} went ahead`),
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(OpsError);
      expect((e as Error).message).toContain(`judge ${command} works on the SQLite file`);
      expect((e as Error).message).toContain(':***@');
      expect((e as Error).message).not.toContain(SECRET);
    }
  });

  it('refuses to serve a database judge init has not filled, saying how to fill it', async () => {
    const empty = await freshDatabase();
    const other = mkdtempSync(join(tmpdir(), 'judge-pg-empty-'));
    try {
      const config = loadConfig(other, { ...TEST_CONFIG, database: withPassword(empty.url) }, {});
      const e = await startApp({ dataDir: other, config, logger: pino({ level: 'silent' }) }).then(
        () => expect.fail('served an empty database'),
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(NotInitialised);
      expect((e as Error).message).toContain('judge init');
      expect((e as Error).message).not.toContain(SECRET);
    } finally {
      rmSync(other, { recursive: true, force: true });
      await empty.drop();
    }
  });
});
