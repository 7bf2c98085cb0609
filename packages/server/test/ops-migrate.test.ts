import { execFile } from 'node:child_process';
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { codeForm } from './support/forms.js';
import { ADMIN_PASSWORD, JUDGE, Scratch, fileHashes, initDataDir, judgeEnv, query, signIn, startJudge, tableCounts } from './support/judge-process.js';
import { packagedProblem } from './support/packaged-problem.js';
import { legacyPackage, zipOf } from './zips.js';
import { freshDatabase, type TestDatabase } from './pg-cluster.js';

/**
 * `judge migrate --to postgres://…`: a one-box data directory, with an activity, a packaged problem,
 * accounts and submissions, copied into an empty PostgreSQL database: every table's rows, the
 * values as they were (booleans, JSON, times), the stored files checked first, a non-empty target
 * refused, and a failure leaving the target empty.
 */

const run = promisify(execFile);
const s = new Scratch();
const targets: TestDatabase[] = [];
let data: string;

async function migrate(url: string, dir = data, extra: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(JUDGE, ['migrate', '--to', url, '--data-dir', dir, '--json', ...extra], { env: judgeEnv() });
    return { code: 0, ...r };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

async function pgRows<T>(url: string, text: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text)).rows as T[];
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  data = join(s.dir(), 'data');
  initDataDir(s, data);
  const served = await startJudge(s, 'serve', data);
  const admin = await signIn(served.url, 'admin', ADMIN_PASSWORD);
  const act = await admin.call(ops.createActivity, { body: { slug: 'spring', name: 'Spring — Frühling', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', joinPolicy: 'open', unlisted: false } });
  const series = await admin.call(ops.createSeries, { params: { idOrSlug: act.slug }, body: { slug: 'main', name: 'Main' } });
  const { problem } = await packagedProblem(admin, { slug: 'sum', name: 'Sum', type: 'standard-io@1' }, await zipOf(legacyPackage('Sum')), 'sum.zip');
  await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug: 'sum' } });
  const issued = await admin.call(ops.createUser, { body: { username: 'pupil' } });
  const pupil = await signIn(served.url, issued.username, issued.password);
  await pupil.call(ops.enrol, { params: { idOrSlug: act.slug }, body: {} });
  for (let i = 0; i < 3; i++) await pupil.call(ops.submit, { params: { idOrSlug: act.slug, problemSlug: 'sum' }, form: codeForm(`print(sum(map(int, input().split())))  # ${i}\n`, 'sum.py') });
  await served.stop();
}, 180_000);

afterAll(async () => {
  for (const t of targets) await t.drop();
  s.cleanup();
});

describe('judge migrate --to', () => {
  it('copies every row of every table, values unchanged, and says what it copied without the password', async () => {
    const target = await freshDatabase();
    targets.push(target);
    const withPassword = new URL(target.url);
    const r = await migrate(target.url);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as { target: string; tables: { name: string; rows: number }[]; rows: number; files: number };
    if (withPassword.password) expect(r.stdout + r.stderr).not.toContain(withPassword.password);

    const source = tableCounts(join(data, 'judge.db'));
    delete source.__drizzle_migrations;
    expect(Object.fromEntries(summary.tables.map((t) => [t.name, t.rows]))).toEqual(source);
    expect(source.submissions).toBe(3);
    expect(summary.files).toBeGreaterThan(0);
    for (const [name, rows] of Object.entries(source)) {
      const [row] = await pgRows<{ n: string }>(target.url, `SELECT count(*) AS n FROM "${name}"`);
      expect(Number(row!.n), name).toBe(rows);
    }
    // values as the one box held them: text with accents, booleans, JSON, times
    const [act] = await pgRows<{ name: string; unlisted: number; created_at: string }>(target.url, "SELECT name, unlisted, created_at FROM activities WHERE slug = 'spring'");
    const [liteAct] = query<{ name: string; created_at: string }>(join(data, 'judge.db'), "SELECT name, created_at FROM activities WHERE slug = 'spring'");
    expect(act).toEqual({ name: 'Spring — Frühling', unlisted: 0, created_at: liteAct!.created_at });
    const subs = await pgRows<{ id: string; props: string; state: string }>(target.url, 'SELECT id, props, state FROM submissions ORDER BY id');
    expect(subs).toEqual(query<{ id: string; props: string; state: string }>(join(data, 'judge.db'), 'SELECT id, props, state FROM submissions ORDER BY id'));
    const [settings] = await pgRows<{ settings: string }>(target.url, 'SELECT settings FROM instance_settings');
    expect(settings).toEqual(query<{ settings: string }>(join(data, 'judge.db'), 'SELECT settings FROM instance_settings')[0]);
    const files = await pgRows<{ sha256: string }>(target.url, 'SELECT sha256 FROM files ORDER BY sha256');
    expect(files.map((f) => f.sha256)).toEqual(query<{ sha256: string }>(join(data, 'judge.db'), 'SELECT sha256 FROM files ORDER BY sha256').map((f) => f.sha256));
  }, 120_000); // fills and copies every table; past 30 s when CI runs both engines' suites on two cores

  it('with --files-dir copies every stored file into that directory, whole, under its hash', async () => {
    const target = await freshDatabase();
    targets.push(target);
    const shared = join(s.dir(), 'shared-files');
    const r = await migrate(target.url, data, ['--files-dir', shared]);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { filesDir: string }).filesDir).toBe(shared);
    const shas = query<{ sha256: string }>(join(data, 'judge.db'), 'SELECT DISTINCT sha256 FROM files ORDER BY sha256').map((f) => f.sha256);
    const copied = fileHashes(shared);
    expect(Object.keys(copied).sort()).toEqual(shas.map((h) => `${h.slice(0, 2)}/${h.slice(2, 4)}/${h}`));
    for (const [rel, hash] of Object.entries(copied)) expect(rel.endsWith(hash)).toBe(true);
    // the one box keeps its own copy
    expect(Object.keys(fileHashes(join(data, 'files'))).filter((p) => !p.startsWith('.'))).toHaveLength(shas.length);
  });

  it('refuses a target that already holds data, and changes nothing in it', async () => {
    const target = await freshDatabase();
    targets.push(target);
    expect((await migrate(target.url)).code).toBe(0);
    const before = await pgRows<{ n: string }>(target.url, 'SELECT count(*) AS n FROM users');
    const again = await migrate(target.url);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/not empty/);
    expect(await pgRows<{ n: string }>(target.url, 'SELECT count(*) AS n FROM users')).toEqual(before);
  });

  it('refuses a data directory whose stored file is missing before writing anything', async () => {
    const target = await freshDatabase();
    targets.push(target);
    const [file] = query<{ sha256: string }>(join(data, 'judge.db'), 'SELECT sha256 FROM files LIMIT 1');
    const path = join(data, 'files', file!.sha256.slice(0, 2), file!.sha256.slice(2, 4), file!.sha256);
    renameSync(path, `${path}.away`);
    try {
      const r = await migrate(target.url);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${file!.sha256} is missing`);
      expect(await pgRows<{ n: string }>(target.url, 'SELECT count(*) AS n FROM users')).toEqual([{ n: 0 }]);
    } finally {
      renameSync(`${path}.away`, path);
    }
  });

  it('refuses a data directory a judge is serving', async () => {
    const target = await freshDatabase();
    targets.push(target);
    const served = await startJudge(s, 'serve', data);
    try {
      const r = await migrate(target.url);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/in use|stop the judge/);
    } finally {
      await served.stop();
    }
  });

  it('refuses a target that is not a PostgreSQL URL', async () => {
    const r = await migrate('mysql://judge:pw@db/judge');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--to takes a PostgreSQL URL');
    expect(r.stderr).not.toContain(':pw@');
  });

  it('names an unreachable target without its password', async () => {
    const r = await migrate('postgres://judge:s3cret-pw@127.0.0.1:1/nowhere');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('postgres://judge:***@127.0.0.1:1/nowhere');
    expect(r.stderr).not.toContain('s3cret-pw');
  });
});
