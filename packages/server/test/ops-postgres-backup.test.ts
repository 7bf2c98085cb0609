import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { raw, TestJudge } from './harness.js';
import { freshDatabase, type TestDatabase } from './pg-cluster.js';
import { codeForm } from './support/forms.js';
import { JUDGE, Scratch, fileHashes, judgeEnv, untar } from './support/judge-process.js';
import { packagedProblem } from './support/packaged-problem.js';
import { legacyPackage, zipOf } from './zips.js';

/**
 * `judge backup` and `judge restore` of a judge on PostgreSQL with a shared files directory: the
 * archive holds a pg_dump of one snapshot and the stored files that snapshot names; a restore fills
 * a new, empty database and files directory, and a judge started on them serves the same data. The
 * database password is never printed; a non-empty target and a missing --database are refused.
 */

const SECRET = 'pg-backup-password-51c7';
const s = new Scratch();
const databases: TestDatabase[] = [];

/** The test database's URL with a password in it: the throw-away cluster trusts local connections, so any password is accepted. */
function withPassword(url: string): string {
  const u = new URL(url);
  u.password = SECRET;
  return u.toString();
}

/** Runs `judge …` without blocking this process, whose own server must keep answering meanwhile. */
function judge(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = execFile(JUDGE, args, { env: judgeEnv(), encoding: 'utf8', timeout: 120_000 }, (e, stdout, stderr) => done({ status: e ? Number((e as { code?: number }).code ?? 1) : 0, stdout, stderr }));
    child.stdin?.end();
  });
}

async function fresh(o: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const db = await freshDatabase(o);
  databases.push(db);
  return db;
}

async function counts(url: string): Promise<Record<string, number>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const names = (await c.query<{ n: string }>("SELECT table_name AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'")).rows.map((r) => r.n);
    const out: Record<string, number> = {};
    for (const n of names) out[n] = Number((await c.query<{ c: string }>(`SELECT count(*) AS c FROM "${n}"`)).rows[0]!.c);
    return out;
  } finally {
    await c.end();
  }
}

describe('judge backup and restore on PostgreSQL', () => {
  let source: TestDatabase;
  let data: string;
  let shared: string;
  let served: TestJudge;
  let admin: JudgeClient;
  let archive: string;
  let pkgId: string;
  let pkgSha: string;

  beforeAll(async () => {
    source = await fresh();
    const work = s.dir();
    data = join(work, 'data');
    shared = join(work, 'shared-files');
    mkdirSync(data);
    writeFileSync(join(data, 'judge.json'), JSON.stringify({ database: withPassword(source.url), filesDir: shared }));
    served = await TestJudge.start({ dataDir: data });
    admin = await served.admin();
    const act = await admin.call(ops.createActivity, { body: { slug: 'spring', name: 'Spring', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', joinPolicy: 'open', unlisted: false } });
    const series = await admin.call(ops.createSeries, { params: { idOrSlug: act.slug }, body: { slug: 'main', name: 'Main' } });
    const { problem, pkg } = await packagedProblem(admin, { slug: 'sum', name: 'Sum', type: 'standard-io@1' }, await zipOf(legacyPackage('Sum')), 'sum.zip');
    pkgId = pkg.id;
    pkgSha = pkg.sha256;
    await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug: 'sum' } });
    const pupil = await served.signIn(await served.user('pupil'));
    await pupil.call(ops.enrol, { params: { idOrSlug: act.slug }, body: {} });
    for (let i = 0; i < 3; i++) await pupil.call(ops.submit, { params: { idOrSlug: act.slug, problemSlug: 'sum' }, form: codeForm(`print(sum(map(int, input().split())))  # ${i}\n`, 'sum.py') });
    archive = join(work, 'spring.tgz');
  }, 120_000);

  afterAll(async () => {
    await served?.stop();
    s.cleanup();
    for (const d of databases) await d.drop();
  });

  it('backs up while the judge serves: a pg_dump and the stored files, mode 0600, the password never printed', { timeout: 120_000 }, async () => {
    const r = await judge(['backup', '--data-dir', data, archive, '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    const summary = JSON.parse(r.stdout) as { engine: string; storedFiles: number; tables: Record<string, number> };
    expect(summary.engine).toBe('postgres');
    expect(summary.tables.submissions).toBe(3);
    expect(statSync(archive).mode & 0o777).toBe(0o600);
    const snap = untar(s, archive);
    expect(existsSync(join(snap, 'database.pgdump'))).toBe(true);
    expect(existsSync(join(snap, 'judge.db'))).toBe(false);
    const manifest = JSON.parse(readFileSync(join(snap, 'manifest.json'), 'utf8')) as { engine: string; tables: Record<string, number> };
    expect(manifest.engine).toBe('postgres');
    expect(manifest.tables).toEqual(summary.tables);
    // every stored file the database names, as the shared directory holds it, under its hash
    const files = fileHashes(join(snap, 'files'));
    expect(Object.keys(files)).toHaveLength(summary.storedFiles);
    for (const [rel, hash] of Object.entries(files)) expect(rel.endsWith(hash)).toBe(true);
    expect(files[`${pkgSha.slice(0, 2)}/${pkgSha.slice(2, 4)}/${pkgSha}`]).toBe(pkgSha);
  });

  it('restores into a new, empty database and files directory; a judge on them serves the same data', { timeout: 180_000 }, async () => {
    // written after the backup: not in it
    await admin.call(ops.createUser, { body: { username: 'after-the-backup' } });
    const before = await counts(source.url);
    const target = await fresh({ migrated: false });
    const dir = join(s.dir(), 'restored');
    const files = join(s.dir(), 'restored-files');
    const r = await judge(['restore', archive, '--data-dir', dir, '--database', withPassword(target.url), '--files-dir', files, '--trust-commands', '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    const summary = JSON.parse(r.stdout) as { engine: string; database: string; filesDir: string; storedFiles: number };
    expect(summary.engine).toBe('postgres');
    expect(summary.database).toContain(':***@');
    expect(summary.filesDir).toBe(files);
    const manifest = JSON.parse(readFileSync(join(untar(s, archive), 'manifest.json'), 'utf8')) as { tables: Record<string, number> };
    expect(await counts(target.url)).toEqual(manifest.tables);
    expect(manifest.tables.users).toBe(before.users! - 1);
    // the dump is not kept in the data directory; the stored files are in the files directory
    expect(existsSync(join(dir, 'database.pgdump'))).toBe(false);
    expect(existsSync(join(dir, 'files'))).toBe(false);
    expect(Object.keys(fileHashes(files)).filter((p) => !p.startsWith('.'))).toHaveLength(summary.storedFiles);

    const again = await TestJudge.start({ dataDir: dir, config: { database: target.url, filesDir: files } });
    try {
      const c = await again.admin();
      expect(await again.query('SELECT id FROM users WHERE username = ?', 'after-the-backup')).toEqual([]);
      const res = await raw(`${again.url}/api/v1/files/${pkgId}`, { token: c.accessToken! });
      expect(res.status).toBe(200);
    } finally {
      await again.stop();
    }
  });

  it('refuses a database that is not empty, and a PostgreSQL backup without --database, changing nothing', { timeout: 180_000 }, async () => {
    const full = await fresh();
    const before = await counts(full.url);
    const into = join(s.dir(), 'not-empty');
    const r = await judge(['restore', archive, '--data-dir', into, '--database', withPassword(full.url)]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^judge: the target database postgresql:\/\/judge:\*\*\*@.* is not empty \(it has \d+ tables\): restore into a new, empty database\n$/);
    expect(r.stderr).not.toContain(SECRET);
    expect(await counts(full.url)).toEqual(before);
    expect(existsSync(into)).toBe(false);

    const none = await judge(['restore', archive, '--data-dir', join(s.dir(), 'no-database')]);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('this is the backup of a judge on PostgreSQL: give the new, empty database to restore it into with --database');
  });
});
