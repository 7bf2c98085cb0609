import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type FileMeta, type Problem, type ProblemVersion } from '@judge/contract';
import type { ApiProblem, JudgeClient } from '@judge/sdk';
import { PROBLEM_TABLES, tableSnapshot } from './support/db-snapshot.js';
import { UNKNOWN_UUID } from './support/ids.js';
import { refusedWith, sendJson } from './expect.js';
import { ManualClock, TestJudge, raw, type TestUser } from './harness.js';
import { declareUncompressedSize, legacyPackage, modernPackage, renameEntry, zipOf } from './zips.js';

const MODERN_SAMPLES = ['sample/1.ans', 'sample/1.in', 'sample/2.ans', 'sample/2.in']; // what the server makes of modernPackage()'s data/sample/

/**
 * Problem versions and packages over real HTTP: statements, files and packages of a version, what
 * carries forward to the next, the refusals of decisions §14, the package check on arrival (good
 * legacy, 2023-07 and wrapped packages; every kind of bad one answered 422 package.invalid with its
 * reason and nothing stored), statement content, the package download, and who may read the files
 * of a version.
 */

let seq = 0;
const uniq = (prefix: string) => `${prefix}${++seq}`;

type VersionBody = {
  note?: string;
  statements?: { language?: string; fileId: string }[];
  files?: { fileId: string; name: string; scope: 'participant' | 'manager' | 'runner' }[];
  removedFiles?: string[];
  props?: Record<string, unknown>;
  package?: { fileId: string; samplesFileId?: string };
};

describe('problem versions and packages', () => {
  let j: TestJudge;
  const clock = new ManualClock();
  let admin: JudgeClient;
  let author: { u: TestUser; c: JudgeClient };
  let colleague: { u: TestUser; c: JudgeClient };
  let plain: { u: TestUser; c: JudgeClient };
  let librarian: { u: TestUser; c: JudgeClient };
  let editor: { u: TestUser; c: JudgeClient };

  const snapshot = () => tableSnapshot(j, PROBLEM_TABLES);

  async function refused(call: Promise<unknown>, status: number, code: string): Promise<ApiProblem> {
    const before = await (call.catch(() => undefined), snapshot()); // a refusal that comes meanwhile is handled; refusedWith reads it
    const e = await refusedWith(call, status, code);
    expect(await snapshot()).toBe(before);
    return e;
  }

  async function account(prefix: string, role?: string, extra: { firstName?: string; lastName?: string } = {}) {
    const u = await j.user(uniq(prefix), extra);
    if (role) await j.grant(u.id, role);
    return { u, c: await j.signIn(u) };
  }

  const problem = (c: JudgeClient = author.c): Promise<Problem> =>
    c.call(ops.createProblem, { body: { slug: uniq('pv-'), name: 'Versioned', type: 'standard-io@1' } });
  const version = (c: JudgeClient, problemId: string, body: VersionBody) => c.call(ops.createProblemVersion, { params: { problemId }, body });
  const versions = (c: JudgeClient, problemId: string) => c.call(ops.listProblemVersions, { params: { problemId } });
  const content = (c: JudgeClient, problemId: string, versionId: string) => c.call(ops.getProblemVersionContent, { params: { problemId, versionId } });
  const upload = (c: JudgeClient, name: string, bytes: string | Buffer, mime = 'application/octet-stream'): Promise<FileMeta> => c.upload(name, bytes, mime);
  const uploadZip = async (c: JudgeClient, entries: Record<string, string | Buffer>) => upload(c, 'package.zip', await zipOf(entries), 'application/zip');
  const share = (c: JudgeClient, id: string, visibility: 'private' | 'shared' | 'instance', sharedWith?: string[]) =>
    c.call(ops.setProblemVisibility, { params: { id }, body: { visibility, ...(sharedWith ? { sharedWith } : {}) } });
  const fileView = (name: string, scope: string, f: FileMeta) => ({ name, scope, mimeType: f.mimeType, sizeBytes: f.sizeBytes, sha256: f.sha256, fileId: f.id });
  const sampleView = (name: string, text: string) => ({ name, scope: 'participant', mimeType: 'text/plain', sizeBytes: Buffer.byteLength(text), sha256: createHash('sha256').update(text).digest('hex'), fileId: expect.any(String) });
  const send = (method: string, path: string, c: JudgeClient, body?: unknown) => sendJson(j.url, method, path, c.accessToken, body);
  const download = (c: JudgeClient, problemId: string, versionId: string, headers: Record<string, string> = {}) =>
    raw(`${j.url}/api/v1/problems/${problemId}/versions/${versionId}/package`, { headers, ...(c.accessToken ? { token: c.accessToken } : {}) });
  const fileStatus = async (c: JudgeClient, fileId: string) => (await c.send(ops.downloadFile, { params: { id: fileId } })).status;

  beforeAll(async () => {
    j = await TestJudge.start({ clock });
    admin = await j.admin();
    await admin.call(ops.createRole, { body: { name: 'Librarian', permissions: ['problem:read:all'] } });
    await admin.call(ops.createRole, { body: { name: 'Problem editor', permissions: ['problem:read:all', 'problem:update'] } });
    author = await account('author', 'manager', { firstName: 'Grace', lastName: 'Hopper' });
    colleague = await account('colleague', 'manager');
    plain = await account('plain');
    librarian = await account('librarian', 'Librarian');
    editor = await account('editor', 'Problem editor');
  });
  afterAll(() => j.stop());

  // ---------------------------------------------------------------- POST versions

  describe('POST /problems/{problemId}/versions', () => {
    it('publishes statements, files and a checked package as version 1: 201, Location, the full view', async () => {
      const p = await problem();
      const en = await upload(author.c, 'en.md', '# Sum', 'text/markdown');
      const pl = await upload(author.c, 'pl.md', '# Suma', 'text/markdown');
      const notes = await upload(author.c, 'notes.txt', 'for managers', 'text/plain');
      const pkg = await uploadZip(author.c, legacyPackage('Sum'));
      const samples = await uploadZip(author.c, { '1.in': '1 2\n', '1.ans': '3\n' });
      clock.advance(10);
      const res = await send('POST', `/problems/${p.id}/versions`, author.c, {
        note: 'first',
        statements: [{ fileId: en.id }, { language: 'pl', fileId: pl.id }],
        files: [{ fileId: notes.id, name: 'notes.txt', scope: 'manager' }],
        props: { archive: { number: 12 } },
        package: { fileId: pkg.id, samplesFileId: samples.id },
      });
      expect(res.status).toBe(201);
      const v = res.body as ProblemVersion;
      expect(res.headers.get('location')).toBe(`/api/v1/problems/${p.id}/versions/${v.id}/content`);
      expect(v).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        version: 1,
        createdAt: clock.now().toISOString(),
        createdByName: 'Grace Hopper',
        note: 'first',
        props: { archive: { number: 12 } },
        hasPackage: true,
        package: { name: 'Sum', timeLimitSeconds: 2.5, memoryMiB: 512, validation: 'default', sampleCount: 1, secretCount: 2, format: 'legacy' },
        files: [
          fileView('notes.txt', 'manager', notes),
          fileView('package.zip', 'runner', pkg),
          // the package's data/sample/ files, read at upload: files of their own participants may read
          sampleView('sample/1.ans', '3\n'),
          sampleView('sample/1.in', '1 2\n'),
          fileView('samples.zip', 'participant', samples),
          fileView('statement.md', 'participant', en),
          fileView('statement.pl.md', 'participant', pl),
        ],
      });
      expect(await versions(author.c, p.id)).toEqual([v]);
      expect(await author.c.call(ops.getProblem, { params: { id: p.id } })).toMatchObject({ currentVersion: 1, versionCount: 1 });
    });

    it('carries forward what the next version does not replace or remove; props too unless given', async () => {
      const p = await problem();
      const st1 = await upload(author.c, 's1.md', '# one');
      const de = await upload(author.c, 'de.md', '# eins');
      const data = await upload(author.c, 'data.txt', 'v1 data');
      const gone = await upload(author.c, 'gone.txt', 'removed later');
      const pkg = await uploadZip(author.c, legacyPackage());
      const samples = await uploadZip(author.c, { 'a.in': '1' });
      const v1 = await version(author.c, p.id, {
        statements: [{ fileId: st1.id }, { language: 'de', fileId: de.id }],
        files: [
          { fileId: data.id, name: 'data.txt', scope: 'participant' },
          { fileId: gone.id, name: 'gone.txt', scope: 'manager' },
        ],
        props: { a: 1 },
        package: { fileId: pkg.id, samplesFileId: samples.id },
      });

      // v2: a new English statement and data.txt replaced by name, gone.txt removed; the rest carries
      const st2 = await upload(author.c, 's2.md', '# two');
      const data2 = await upload(author.c, 'data2.txt', 'v2 data');
      const v2 = await version(author.c, p.id, {
        statements: [{ fileId: st2.id }],
        files: [{ fileId: data2.id, name: 'data.txt', scope: 'runner' }],
        removedFiles: ['gone.txt'],
      });
      expect(v2).toMatchObject({ version: 2, props: { a: 1 }, hasPackage: true, package: v1.package });
      expect(v2.note).toBeUndefined();
      expect(v2.files).toEqual([
        fileView('data.txt', 'runner', data2),
        fileView('package.zip', 'runner', pkg),
        sampleView('sample/1.ans', '3\n'),
        sampleView('sample/1.in', '1 2\n'),
        fileView('samples.zip', 'participant', samples),
        fileView('statement.de.md', 'participant', de),
        fileView('statement.md', 'participant', st2),
      ]);

      // v3: a new package without a samples zip drops the old package and samples (it brings its own); props replaced
      const pkg2 = await uploadZip(author.c, modernPackage());
      const v3 = await version(author.c, p.id, { package: { fileId: pkg2.id }, props: { b: 2 } });
      expect(v3).toMatchObject({ version: 3, props: { b: 2 }, package: { format: '2023-07', name: 'Sum of two' } });
      expect(v3.files.map((f) => f.name)).toEqual(['data.txt', 'package.zip', ...MODERN_SAMPLES, 'statement.de.md', 'statement.md']);
      expect(v3.files.filter((f) => f.name.startsWith('sample/')).map((f) => f.fileId)).not.toEqual(v2.files.filter((f) => f.name.startsWith('sample/')).map((f) => f.fileId));
      expect(v3.files.find((f) => f.name === 'package.zip')!.fileId).toBe(pkg2.id);

      // v4: removing the package leaves no package information behind, nor its samples
      const v4 = await version(author.c, p.id, { removedFiles: ['package.zip', 'statement.de.md'] });
      expect(v4.hasPackage).toBe(false);
      expect(v4.package).toBeUndefined();
      expect(v4.files.map((f) => f.name)).toEqual(['data.txt', 'statement.md']);

      const listed = await versions(author.c, p.id);
      expect(listed.map((v) => v.version)).toEqual([4, 3, 2, 1]);
      expect(listed[3]).toEqual(v1);
      // earlier versions are never changed by later ones
      expect(listed[2]).toEqual(v2);
    });

    it('the first version needs a package or statements (422 validation_failed); later ones need neither', async () => {
      const p = await problem();
      const notes = await upload(author.c, 'n.txt', 'x');
      const e = await refused(version(author.c, p.id, { files: [{ fileId: notes.id, name: 'n.txt', scope: 'manager' }] }), 422, 'validation_failed');
      expect(e.detail).toMatch(/first version.*package or at least one statement/);
      await refused(version(author.c, p.id, {}), 422, 'validation_failed');
      const pkg = await uploadZip(author.c, legacyPackage());
      expect((await version(author.c, p.id, { package: { fileId: pkg.id } })).files.map((f) => f.name)).toEqual(['package.zip', 'sample/1.ans', 'sample/1.in']);
      expect((await version(author.c, p.id, { note: 'just a note' })).files.map((f) => f.name)).toEqual(['package.zip', 'sample/1.ans', 'sample/1.in']);
    });

    it('refuses what decisions §14 forbids, storing nothing', async () => {
      const p = await problem();
      const f = await upload(author.c, 'f.md', '# f');
      const g = await upload(author.c, 'g.md', '# g');
      await version(author.c, p.id, { statements: [{ fileId: f.id }] });

      await refused(version(author.c, p.id, { statements: [] }), 422, 'version.statements.empty');
      for (const name of ['statement.md', 'statement.en.md', 'Statement.PL.md']) {
        const e = await refused(version(author.c, p.id, { files: [{ fileId: g.id, name, scope: 'participant' }] }), 422, 'version.file.isStatement');
        expect(e.detail).toContain(name);
      }
      for (const name of ['package.zip', 'samples.zip', 'Package.ZIP']) {
        await refused(version(author.c, p.id, { files: [{ fileId: g.id, name, scope: 'runner' }] }), 422, 'version.file.isPackage');
      }
      const dup = await refused(
        version(author.c, p.id, {
          files: [
            { fileId: f.id, name: 'same.txt', scope: 'participant' },
            { fileId: g.id, name: 'same.txt', scope: 'manager' },
          ],
        }),
        409,
        'version.file.duplicate',
      );
      expect(dup.detail).toContain('same.txt');
      await refused(version(author.c, p.id, { statements: [{ language: 'en', fileId: f.id }, { language: 'en', fileId: g.id }] }), 409, 'version.file.duplicate');
      await refused(version(author.c, p.id, { statements: [{ fileId: f.id }, { fileId: g.id }] }), 409, 'version.file.duplicate');

      const removed = await refused(version(author.c, p.id, { removedFiles: ['statement.md', 'nothing.txt'] }), 422, 'validation_failed');
      expect(removed.detail).toContain('nothing.txt');
      expect(removed.detail).not.toContain('statement.md');
      expect(await versions(author.c, p.id)).toHaveLength(1);
    });

    it('refuses unknown files and files the caller may not read (422 file.missing), wherever they are named', async () => {
      const p = await problem();
      const mine = await upload(author.c, 'mine.md', '# mine');
      const theirs = await upload(colleague.c, 'theirs.md', '# theirs');
      const cases: [VersionBody, string][] = [
        [{ statements: [{ fileId: UNKNOWN_UUID }] }, 'statements[0].fileId'],
        [{ statements: [{ fileId: mine.id }], files: [{ fileId: theirs.id, name: 'x.txt', scope: 'manager' }] }, 'files[0].fileId'],
        [{ package: { fileId: UNKNOWN_UUID } }, 'package.fileId'],
        [{ statements: [{ fileId: mine.id }], package: { fileId: mine.id, samplesFileId: theirs.id } }, 'package.samplesFileId'],
      ];
      for (const [body, path] of cases) {
        const e = await refused(version(author.c, p.id, body), 422, 'file.missing');
        expect(Object.keys(e.errors ?? {})).toEqual([path]);
      }
      // the administrator may use any stored file
      expect((await version(admin, p.id, { statements: [{ fileId: theirs.id }] })).files[0]!.fileId).toBe(theirs.id);
    });

    it('who may: problem:update plus write access (owner, shared, reader of all with update, admin)', async () => {
      const p = await problem();
      const body = async (c: JudgeClient) => ({ statements: [{ fileId: (await upload(c, 's.md', '# s')).id }] });
      await refused(version(plain.c, p.id, await body(plain.c)), 404, 'not_found');
      await refused(version(colleague.c, p.id, await body(colleague.c)), 404, 'not_found');
      await share(author.c, p.id, 'instance');
      const e = await refused(version(colleague.c, p.id, await body(colleague.c)), 403, 'forbidden');
      expect(e.detail).toContain('problem:update');
      await refused(version(librarian.c, p.id, await body(librarian.c)), 403, 'forbidden');
      await share(author.c, p.id, 'shared', [colleague.u.id]);
      expect((await version(colleague.c, p.id, await body(colleague.c))).version).toBe(1);
      expect((await version(editor.c, p.id, await body(editor.c))).version).toBe(2);
      expect((await version(admin, p.id, await body(admin))).version).toBe(3);
      await refused(version(author.c, UNKNOWN_UUID, await body(author.c)), 404, 'not_found');
      await refused(j.anonymous().call(ops.createProblemVersion, { params: { problemId: p.id }, body: {} }), 401, 'unauthenticated');
    });

    it('refuses malformed bodies (422) changing nothing', async () => {
      const p = await problem();
      const f = await upload(author.c, 'f.md', '# f');
      const bad: unknown[] = [
        { statements: [{ fileId: 'not-a-uuid' }] },
        { statements: [{ fileId: f.id, language: 'e' }] },
        { statements: [{ fileId: f.id, language: 'en_US' }] },
        { statements: { fileId: f.id } },
        { files: [{ fileId: f.id, name: 'a/b.txt', scope: 'participant' }] },
        { files: [{ fileId: f.id, name: 'a.txt', scope: 'everyone' }] },
        { files: [{ fileId: f.id, scope: 'participant' }] },
        { statements: [{ fileId: f.id }], props: [1, 2] },
        { statements: [{ fileId: f.id }], props: 'x' },
        { statements: [{ fileId: f.id }], removedFiles: 'a.txt' },
        { package: { samplesFileId: f.id } },
        { statements: [{ fileId: f.id }], note: 7 },
      ];
      for (const body of bad) {
        const before = await snapshot();
        const res = await send('POST', `/problems/${p.id}/versions`, author.c, body);
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body.code).toBe('validation_failed');
        expect(await snapshot()).toBe(before);
      }
      expect((await send('POST', `/problems/${p.id}/versions`, author.c, '{')).status).toBe(400);
    });
  });

  // ---------------------------------------------------------------- the package check

  describe('the package check on arrival', () => {
    const wrap = (folder: string, entries: Record<string, string>) => ({
      [`${folder}/`]: '',
      ...Object.fromEntries(Object.entries(entries).map(([k, v]) => [`${folder}/${k}`, v])),
    });

    it('reads a legacy package: name, .timelimit, limits.memory, validation and the tests in nested groups', async () => {
      const p = await problem();
      const v = await version(author.c, p.id, { package: { fileId: (await uploadZip(author.c, legacyPackage('Hello'))).id } });
      expect(v.package).toEqual({ name: 'Hello', timeLimitSeconds: 2.5, memoryMiB: 512, validation: 'default', sampleCount: 1, secretCount: 2, format: 'legacy' });
    });

    it('reads a 2023-07 package: the English name, limits from problem.yaml, type as validation', async () => {
      const p = await problem();
      const v = await version(author.c, p.id, { package: { fileId: (await uploadZip(author.c, modernPackage())).id } });
      expect(v.package).toEqual({ name: 'Sum of two', timeLimitSeconds: 1.5, memoryMiB: 1024, validation: 'pass-fail interactive', sampleCount: 2, secretCount: 1, format: '2023-07' });
    });

    it('accepts a multi-pass package (the runner judges it), legacy and 2023-07', async () => {
      const p = await problem();
      const modern = { ...legacyPackage('Passes'), 'problem.yaml': 'problem_format_version: 2023-07\nname: Passes\ntype: [multi-pass, interactive]\nlimits: {validation_passes: 3}\n' };
      expect((await version(author.c, p.id, { package: { fileId: (await uploadZip(author.c, modern)).id } })).package).toMatchObject({ name: 'Passes', validation: 'multi-pass interactive', format: '2023-07' });
      const legacy = { ...legacyPackage('Old passes'), 'problem.yaml': 'name: Old passes\nvalidation: custom multi-pass\n' };
      expect((await version(author.c, p.id, { package: { fileId: (await uploadZip(author.c, legacy)).id } })).package).toMatchObject({ validation: 'custom multi-pass', format: 'legacy' });
    });

    it('accepts a package wrapped in one top-level folder (macOS metadata beside it ignored)', async () => {
      const p = await problem();
      const entries = { ...wrap('hello', legacyPackage('Wrapped')), '__MACOSX/hello/._problem.yaml': 'resource fork' };
      const v = await version(author.c, p.id, { package: { fileId: (await uploadZip(author.c, entries)).id } });
      expect(v.package).toMatchObject({ name: 'Wrapped', timeLimitSeconds: 2.5, sampleCount: 1, secretCount: 2 });
    });

    it('an empty problem.yaml is an empty mapping, and an unknown format version is legacy', async () => {
      const p = await problem();
      const bare = await version(author.c, p.id, { package: { fileId: (await uploadZip(author.c, { 'problem.yaml': '', 'data/secret/1.in': '1' })).id } });
      expect(bare.package).toEqual({ sampleCount: 0, secretCount: 1, format: 'legacy' });
      const later = await uploadZip(author.c, { 'problem.yaml': 'problem_format_version: 2025-09\nname: Later\n', 'data/sample/x.in': '1' });
      expect((await version(author.c, p.id, { package: { fileId: later.id } })).package).toMatchObject({ name: 'Later', format: '2023-07' });
    });

    describe('refuses a bad package with 422 package.invalid naming the problem, storing no version', () => {
      const withData = (entries: Record<string, string>) => ({ ...entries, 'data/sample/1.in': '1', 'data/sample/1.ans': '1' });
      const evil = async (to: string) => renameEntry(await zipOf({ ...legacyPackage(), 'zz/evil.txt': 'x' }, { store: true }), 'zz/evil.txt', to);
      const cases: [string, () => Promise<Buffer>, RegExp][] = [
        ['not a zip', async () => Buffer.from('these bytes are not a zip file at all'), /not a zip file/],
        ['a truncated zip', async () => (await zipOf(legacyPackage())).subarray(0, 60), /not a zip file/],
        ['no problem.yaml', () => zipOf(withData({ 'problem.yml': 'name: x' })), /problem\.yaml is missing/],
        ['bad YAML', () => zipOf(withData({ 'problem.yaml': 'name: a: b' })), /problem\.yaml does not parse: Nested mappings are not allowed/],
        ['YAML that is not a mapping', () => zipOf(withData({ 'problem.yaml': '- one\n- two\n' })), /problem\.yaml must be a YAML mapping/],
        ['no data/', () => zipOf({ 'problem.yaml': 'name: x' }), /data\/ is missing/],
        ['data/ without tests', () => zipOf({ 'problem.yaml': 'name: x', 'data/': '', 'data/sample/readme.txt': 'none' }), /data\/ holds no tests/],
        ['an entry with ../', () => evil('../evil.txt'), /"\.\.\/evil\.txt" points outside the package/],
        ['an absolute entry', () => evil('/z/evil.txt'), /"\/z\/evil\.txt" points outside the package/],
        ['a backslash escape', () => evil('..\\evil.txt'), /points outside the package/],
        ['more than 1 GiB declared', async () => declareUncompressedSize(await zipOf(legacyPackage()), 0x30000000), /more than 1 GiB/],
        ['a time limit that is not a number', () => zipOf(withData({ 'problem.yaml': 'limits:\n  time_limit: fast\n' })), /limits\.time_limit/],
        ['a bad .timelimit file', () => zipOf(withData({ 'problem.yaml': 'name: x', '.timelimit': 'soon' })), /\.timelimit/],
        ['limits that are not a mapping', () => zipOf(withData({ 'problem.yaml': 'limits: 3' })), /limits in problem\.yaml must be a mapping/],
        ['a custom grader', () => zipOf(withData({ 'problem.yaml': 'name: x\n', 'data/testdata.yaml': 'grading: custom\n' })), /asks for a custom grader/],
        ['a multi-pass problem of one pass', () => zipOf(withData({ 'problem.yaml': 'type: multi-pass\nlimits: {validation_passes: 1}\n' })), /validation_passes in problem\.yaml must be a whole number of at least 2/],
      ];
      for (const [what, bytes, reason] of cases) {
        it(what, async () => {
          const p = await problem();
          const pkg = await upload(author.c, 'package.zip', await bytes(), 'application/zip');
          const e = await refused(version(author.c, p.id, { package: { fileId: pkg.id } }), 422, 'package.invalid');
          expect(e.detail).toMatch(reason);
          expect(e.errors?.['package.fileId']?.[0]).toMatch(reason);
          expect(await versions(author.c, p.id)).toEqual([]);
          // the upload itself stays: it belongs to the uploader
          expect((await author.c.call(ops.getFileMeta, { params: { id: pkg.id } })).sha256).toBe(pkg.sha256);
        });
      }

      it('more than 10,000 entries', async () => {
        const p = await problem();
        const many: Record<string, string> = { 'problem.yaml': 'name: many' };
        for (let i = 0; i < 10_000; i++) many[`data/secret/${i}.in`] = '';
        const pkg = await upload(author.c, 'many.zip', await zipOf(many, { store: true }), 'application/zip');
        const e = await refused(version(author.c, p.id, { package: { fileId: pkg.id } }), 422, 'package.invalid');
        expect(e.detail).toContain('10001 entries');
      });

      it('a bad package on a later version leaves the previous one current', async () => {
        const p = await problem();
        const good = await version(author.c, p.id, { package: { fileId: (await uploadZip(author.c, legacyPackage())).id } });
        const bad = await uploadZip(author.c, { 'problem.yaml': 'name: x' });
        const statement = await upload(author.c, 's.md', '# s');
        await refused(version(author.c, p.id, { statements: [{ fileId: statement.id }], package: { fileId: bad.id } }), 422, 'package.invalid');
        expect(await versions(author.c, p.id)).toEqual([good]);
        expect(await author.c.call(ops.getProblem, { params: { id: p.id } })).toMatchObject({ currentVersion: 1 });
      });
    });
  });

  // ---------------------------------------------------------------- GET versions, content, package

  describe('reading versions', () => {
    let p: Problem;
    let v1: ProblemVersion;
    let v2: ProblemVersion;
    let pkg: FileMeta;
    let statement: FileMeta;
    let english: FileMeta;
    let notes: FileMeta;

    beforeAll(async () => {
      p = await problem();
      statement = await upload(author.c, 'plain.md', '# Plain statement', 'text/markdown');
      english = await upload(author.c, 'en.md', '# English statement', 'text/markdown');
      notes = await upload(author.c, 'notes.txt', 'manager notes');
      v1 = await version(author.c, p.id, { statements: [{ fileId: statement.id }] });
      pkg = await uploadZip(author.c, legacyPackage());
      v2 = await version(author.c, p.id, {
        statements: [{ language: 'en', fileId: english.id }],
        files: [{ fileId: notes.id, name: 'notes.txt', scope: 'manager' }],
        package: { fileId: pkg.id },
      });
    });

    it('GET versions lists newest first to every reader; 404 to those who cannot read the problem', async () => {
      expect((await versions(author.c, p.id)).map((v) => v.id)).toEqual([v2.id, v1.id]);
      expect(await versions(librarian.c, p.id)).toEqual([v2, v1]);
      await refused(versions(colleague.c, p.id), 404, 'not_found');
      await refused(versions(plain.c, p.id), 404, 'not_found');
      await refused(versions(author.c, UNKNOWN_UUID), 404, 'not_found');
      expect((await send('GET', '/problems/not-a-uuid/versions', author.c)).status).toBe(404);
    });

    it('GET content answers the statements of a version with language, bytes and hash', async () => {
      expect(await content(author.c, p.id, v1.id)).toEqual([{ name: 'statement.md', format: 'markdown', fileId: statement.id, sha256: statement.sha256, sizeBytes: statement.sizeBytes }]);
      expect(await content(librarian.c, p.id, v2.id)).toEqual([
        { name: 'statement.en.md', language: 'en', format: 'markdown', fileId: english.id, sha256: english.sha256, sizeBytes: english.sizeBytes },
        { name: 'statement.md', format: 'markdown', fileId: statement.id, sha256: statement.sha256, sizeBytes: statement.sizeBytes },
      ]);
    });

    it('GET content answers 404 for a version of another problem, an unknown one, or an unreadable problem', async () => {
      const other = await problem();
      const ov = await version(author.c, other.id, { statements: [{ fileId: statement.id }] });
      await refused(content(author.c, p.id, ov.id), 404, 'not_found');
      await refused(content(author.c, p.id, UNKNOWN_UUID), 404, 'not_found');
      await refused(content(colleague.c, p.id, v1.id), 404, 'not_found');
      expect((await send('GET', `/problems/${p.id}/versions/nope/content`, author.c)).status).toBe(404);
    });

    it('GET package streams the zip with ETag to those who may edit; 304 on a matching If-None-Match', async () => {
      const res = await download(author.c, p.id, v2.id);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/zip');
      expect(res.headers.get('etag')).toBe(`"${pkg.sha256}"`);
      expect(res.headers.get('content-disposition')).toContain(`${p.slug}-v2.zip`);
      const bytes = Buffer.from(await author.c.call(ops.downloadProblemPackage, { params: { problemId: p.id, versionId: v2.id } }) as ArrayBuffer);
      expect(bytes).toEqual(await zipOf(legacyPackage()));
      expect((await download(author.c, p.id, v2.id, { 'if-none-match': `"${pkg.sha256}"` })).status).toBe(304);
      expect((await download(editor.c, p.id, v2.id)).status).toBe(200);
      expect((await download(admin, p.id, v2.id)).status).toBe(200);
    });

    it('GET package: 404 without a package or for an unreadable problem, 403 for a reader without write access', async () => {
      await refused(author.c.call(ops.downloadProblemPackage, { params: { problemId: p.id, versionId: v1.id } }), 404, 'not_found');
      await refused(colleague.c.call(ops.downloadProblemPackage, { params: { problemId: p.id, versionId: v2.id } }), 404, 'not_found');
      await refused(plain.c.call(ops.downloadProblemPackage, { params: { problemId: p.id, versionId: v2.id } }), 404, 'not_found');
      const e = await refused(librarian.c.call(ops.downloadProblemPackage, { params: { problemId: p.id, versionId: v2.id } }), 403, 'forbidden');
      expect(e.detail).toContain('problem:update');
      await refused(author.c.call(ops.downloadProblemPackage, { params: { problemId: p.id, versionId: UNKNOWN_UUID } }), 404, 'not_found');
    });

    it('version files: participant scope readable by readers, other scopes only by those who may edit', async () => {
      const q = await problem();
      const st = await upload(author.c, 'q.md', '# q', 'text/markdown');
      const secret = await upload(author.c, 'secret.txt', 'managers only');
      const zip = await uploadZip(author.c, legacyPackage());
      await version(author.c, q.id, { statements: [{ fileId: st.id }], files: [{ fileId: secret.id, name: 'secret.txt', scope: 'manager' }], package: { fileId: zip.id } });

      // private: only the owner (the uploader) and those who read every problem
      for (const f of [st, secret, zip]) {
        expect(await fileStatus(colleague.c, f.id)).toBe(404);
        expect(await fileStatus(plain.c, f.id)).toBe(404);
      }
      expect(await fileStatus(librarian.c, st.id)).toBe(200);
      expect(await fileStatus(librarian.c, secret.id)).toBe(404);
      expect(await fileStatus(editor.c, secret.id)).toBe(200);
      expect(await fileStatus(editor.c, zip.id)).toBe(200);

      // instance-wide: every reader gets the statement, not the manager file or the package
      await share(author.c, q.id, 'instance');
      expect(await fileStatus(colleague.c, st.id)).toBe(200);
      expect(await fileStatus(colleague.c, secret.id)).toBe(404);
      expect(await fileStatus(colleague.c, zip.id)).toBe(404);
      expect(await fileStatus(plain.c, st.id)).toBe(404);

      // shared: write access, so every file
      await share(author.c, q.id, 'shared', [colleague.u.id]);
      for (const f of [st, secret, zip]) expect(await fileStatus(colleague.c, f.id)).toBe(200);
      expect(await colleague.c.call(ops.getFileMeta, { params: { id: secret.id } })).toEqual(secret);
    });
  });
});
