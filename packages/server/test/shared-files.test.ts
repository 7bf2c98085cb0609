import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { ConfigError, loadConfig, startApp } from '@judge/server';
import { DataDirUnwritable, ensureDataDirs } from '../src/datadir.js';
import { BlobStore } from '../src/modules/files/index.js';
import { localFilesNotice } from '../src/serve-command.js';
import { raw, TestJudge } from './harness.js';
import { freshDatabase, type TestDatabase } from './pg-cluster.js';
import { codeForm } from './support/forms.js';
import { packagedProblem } from './support/packaged-problem.js';
import { Runner } from './support/runner-bench.js';
import { legacyPackage, zipOf } from './zips.js';

/**
 * The `filesDir` setting (docs/storage.md, "Files"): two servers on one PostgreSQL database and one
 * shared files directory read each other's uploads (a runner claiming through one downloads the
 * source submitted through the other) and printouts' PDFs; the same blob written through both at
 * once leaves one intact file; and the setting's refusals.
 */

const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

/** Every file under `dir`, relative to it. */
function walk(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(dir, join(prefix, e.name)) : [join(prefix, e.name)]));
}

describe('two servers on one database and one files directory', () => {
  let db: TestDatabase;
  let root: string;
  let shared: string;
  let a: TestJudge;
  let b: TestJudge;
  let adminA: JudgeClient;
  let adminB: JudgeClient;
  let act: Activity;

  beforeAll(async () => {
    db = await freshDatabase();
    root = mkdtempSync(join(tmpdir(), 'judge-shared-files-'));
    shared = join(root, 'shared-files');
    const start = (name: string) => TestJudge.start({ dataDir: join(root, name), config: { database: db.url, filesDir: shared, printing: { command: '' } } });
    a = await start('server-a');
    b = await start('server-b');
    adminA = await a.admin();
    adminB = await b.admin();
    act = await adminA.call(ops.createActivity, { body: { slug: 'shared', name: 'Shared', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', joinPolicy: 'open', unlisted: false, modules: { printouts: true } } });
  }, 120_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    rmSync(root, { recursive: true, force: true });
    await db?.drop();
  });

  it('keeps nothing in either data directory: the blobs are in the shared directory', async () => {
    const pkg = await packagedProblem(adminA, { slug: 'sum', name: 'Sum', type: 'shared-kind@1' }, await zipOf(legacyPackage('Sum')));
    expect(statSync(join(shared, pkg.pkg.sha256.slice(0, 2), pkg.pkg.sha256.slice(2, 4), pkg.pkg.sha256)).size).toBe(pkg.pkg.sizeBytes);
    for (const s of [a, b]) expect(readdirSync(s.dataDir)).not.toContain('files');
  });

  it("a runner claiming through one server downloads the source and package submitted through the other", async () => {
    const series = await adminA.call(ops.createSeries, { params: { idOrSlug: act.slug }, body: { slug: 'r1', name: 'Round' } });
    const { problem } = await packagedProblem(adminA, { slug: 'sum2', name: 'Sum', type: 'shared-judge@1' }, await zipOf(legacyPackage('Sum')));
    await adminA.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug: 'sum' } });
    const pupil = await a.user('pupil');
    const onA = await a.signIn(pupil);
    await onA.call(ops.enrol, { params: { idOrSlug: act.slug }, body: {} });
    const code = `print(sum(map(int, input().split())))  # ${randomBytes(4).toString('hex')}\n`;
    const sub = await onA.call(ops.submit, { params: { idOrSlug: act.slug, problemSlug: 'sum' }, form: codeForm(code, 'sum.py') });

    const runner = new Runner(b.url, 'runner-on-b', ['shared-judge@1']);
    expect((await runner.register()).status).toBe(200);
    await adminB.call(ops.approveRunner, { params: { id: runner.id } });
    await runner.authenticate();
    const job = await runner.job();
    expect(job.submissionId).toBe(sub.id);
    const source = await runner.download(job.files[0]!.fileId);
    expect(source.status).toBe(200);
    expect(source.bytes.toString('utf8')).toBe(code);
    const pkg = await runner.download(job.packageFileId);
    expect(pkg.status).toBe(200);
    expect(sha(pkg.bytes)).toBe(job.packageSha256);
  });

  it("a printout's PDF made on one server is read, not made again, on the other", { timeout: 90_000 }, async () => {
    const alice = await a.user('alice');
    await a.grant(alice.id, 'participant', act.id);
    const printer = await a.user('printer');
    await a.grant(printer.id, 'manager', act.id);
    const p = await (await a.signIn(alice)).call(ops.requestPrintout, { params: { idOrSlug: act.slug }, body: { fileName: 'hello.c', source: 'int main() { return 0; }\n' } as never });
    const made = Buffer.from(await (await a.signIn(printer)).call(ops.getPrintoutPdf, { params: { id: p.id } }));
    expect(a.app.services.printouts.renders).toBe(1);
    expect(readdirSync(join(shared, '.printouts')).filter((n) => n.startsWith(p.id))).toHaveLength(1);
    const read = Buffer.from(await (await b.signIn(printer)).call(ops.getPrintoutPdf, { params: { id: p.id } }));
    expect(b.app.services.printouts.renders).toBe(0);
    expect(sha(read)).toBe(sha(made));
  });

  it('the same blob uploaded through both servers at once leaves one intact file and no leftover', async () => {
    const bytes = randomBytes(3 * 1024 * 1024);
    const hash = sha(bytes);
    const upload = (j: TestJudge, token: string) => {
      const f = new FormData();
      f.set('sha256', hash);
      f.set('file', new Blob([bytes]), 'same.bin');
      return raw(`${j.url}/api/v1/files`, { method: 'POST', body: f, token });
    };
    const tokens = [adminA.accessToken!, adminB.accessToken!];
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => upload(i % 2 ? b : a, tokens[i % 2]!)));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(201));
    const path = join(shared, hash.slice(0, 2), hash.slice(2, 4), hash);
    expect(sha(readFileSync(path))).toBe(hash);
    expect(walk(shared).filter((p) => p.endsWith(hash))).toEqual([join(hash.slice(0, 2), hash.slice(2, 4), hash)]);
    expect(readdirSync(join(shared, '.incoming'))).toEqual([]);
  });
});

describe('the blob store under concurrent writers', () => {
  it('two stores on one directory writing the same bytes at once leave one whole file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judge-blob-race-'));
    try {
      const one = new BlobStore(dir);
      const two = new BlobStore(dir);
      const bytes = randomBytes(8 * 1024 * 1024);
      const hashes = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? one : two).put(bytes)));
      expect(new Set(hashes)).toEqual(new Set([sha(bytes)]));
      expect(sha(readFileSync(one.pathOf(sha(bytes))))).toBe(sha(bytes));
      expect(readdirSync(one.incomingDir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('replaces a stored file of the wrong size (a damaged one), keeps one of the right size', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judge-blob-damaged-'));
    try {
      const store = new BlobStore(dir);
      const bytes = Buffer.from('the right bytes\n');
      const path = store.pathOf(sha(bytes));
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, 'cut');
      await store.put(bytes);
      expect(readFileSync(path)).toEqual(bytes);
      const inode = statSync(path).ino;
      await store.put(bytes);
      expect(statSync(path).ino).toBe(inode);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the filesDir setting', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'judge-files-setting-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const refusal = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      return (e as Error).message;
    }
    return expect.fail('was accepted');
  };

  it('is empty by default, takes JUDGE_FILES_DIR and an absolute path', () => {
    expect(loadConfig(dir, {}, {}).filesDir).toBe('');
    expect(loadConfig(dir, {}, { JUDGE_FILES_DIR: '/srv/judge-files' }).filesDir).toBe('/srv/judge-files');
    expect(loadConfig(dir, { filesDir: '/srv/judge-files/' }, {}).filesDir).toBe('/srv/judge-files');
  });

  it('refuses a relative path, and a directory that is or holds the data directory, in one line', () => {
    expect(refusal(() => loadConfig(dir, {}, { JUDGE_FILES_DIR: 'files' }))).toBe('invalid configuration: filesDir: an absolute path (e.g. /srv/judge-files), or empty for DATA_DIR/files');
    expect(refusal(() => loadConfig(dir, { filesDir: dir }, {}))).toBe(`invalid configuration: filesDir: ${dir} holds the data directory ${dir}; give a directory of its own (e.g. /srv/judge-files), or empty for DATA_DIR/files`);
    expect(refusal(() => loadConfig(dir, { filesDir: join(dir, '..') }, {}))).toContain('holds the data directory');
  });

  it('a files directory that cannot be written is one plain sentence at start', async () => {
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, '');
    const filesDir = join(blocker, 'files');
    expect(() => ensureDataDirs(join(dir, 'data'), filesDir)).toThrow(new DataDirUnwritable(`cannot write to ${filesDir} (a part of the path is not a directory)`));
    const config = loadConfig(join(dir, 'data'), { filesDir, database: 'postgres://judge@localhost/none' }, {});
    await expect(startApp({ dataDir: join(dir, 'data'), config })).rejects.toThrow(`cannot write to ${filesDir} (a part of the path is not a directory)`);
  });

  it('on PostgreSQL without it, serve says that other servers will not see the files', () => {
    expect(localFilesNotice('', '', '/d')).toBeUndefined();
    expect(localFilesNotice('postgres://judge:***@h/db', '/srv/f', '/d')).toBeUndefined();
    expect(localFilesNotice('postgres://judge:***@h/db', '', '/d')).toMatch(/^the stored files are in \/d\/files, which only this server sees/);
  });
});
