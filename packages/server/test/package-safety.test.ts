import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { zipRefusal } from '@judge/problem-package';
import { extractZip, PACKAGE_CACHE_DEFAULTS, PackageError } from '@judge/runner';
import type { JudgeClient } from '@judge/sdk';
import { refusedWith } from './expect.js';
import { TestJudge } from './harness.js';
import { PROBLEM_TABLES, tableSnapshot } from './support/db-snapshot.js';
import { declareUncompressedSize, legacyPackage, renameEntry, zipOf } from './zips.js';

/**
 * One function decides whether a package zip is safe (@judge/problem-package's openPackageZip):
 * every zip it refuses is refused by the server when a version is made of it, with exactly its
 * reason, storing nothing, and by the runner with the same reason. Before, a zip with a symbolic
 * link passed the server and every submission then failed at the runner.
 */

/** Rewrites fields of the central-directory record (and the local header) of the entry `name`. */
function patchEntry(zip: Buffer, name: string, patch: { central: (at: number, out: Buffer) => void; local?: (at: number, out: Buffer) => void }): Buffer {
  const out = Buffer.from(zip);
  const bytes = Buffer.from(name);
  for (let i = 0; i + 46 <= out.length; i++) {
    const sig = out.readUInt32LE(i);
    if (sig === 0x02014b50 && out.readUInt16LE(i + 28) === bytes.length && out.subarray(i + 46, i + 46 + bytes.length).equals(bytes)) patch.central(i, out);
    if (sig === 0x04034b50 && patch.local && out.readUInt16LE(i + 26) === bytes.length && out.subarray(i + 30, i + 30 + bytes.length).equals(bytes)) patch.local(i, out);
  }
  return out;
}

const withFile = (name: string, content: string | Buffer = 'x', mode?: number) =>
  zipOf({ ...legacyPackage(), [name]: mode === undefined ? content : { content, mode } } as Parameters<typeof zipOf>[0]);

const CASES: [string, () => Promise<Buffer>, RegExp][] = [
  ['a symbolic link', () => withFile('data/secret/link.in', '/etc/passwd', 0o120777), /is a symbolic link/],
  ['a named pipe', () => withFile('data/fifo', '', 0o010644), /is a special file/],
  ['an entry with ../ (zip-slip)', async () => renameEntry(await withFile('zz/evil.txt'), 'zz/evil.txt', '../evil.txt'), /points outside the package/],
  ['an absolute entry', async () => renameEntry(await withFile('zz/evil.txt'), 'zz/evil.txt', '/z/evil.txt'), /points outside the package/],
  ['a drive letter', async () => renameEntry(await withFile('zz/evil.txt'), 'zz/evil.txt', 'C:/evil.txt'), /points outside the package/],
  ['a backslash', async () => renameEntry(await withFile('zz/evil.txt'), 'zz/evil.txt', 'zz\\evil.txt'), /points outside the package/],
  ['a name given twice', async () => renameEntry(await zipOf({ ...legacyPackage(), 'aa/x.txt': '1', 'bb/x.txt': '2' }), 'bb/x.txt', 'aa/x.txt'), /twice/],
  ['an encrypted entry', async () => patchEntry(await withFile('zz/secret.txt'), 'zz/secret.txt', { central: (at, out) => out.writeUInt16LE(out.readUInt16LE(at + 8) | 1, at + 8), local: (at, out) => out.writeUInt16LE(out.readUInt16LE(at + 6) | 1, at + 6) }), /is encrypted/],
  ['a compression method other than stored or deflate', async () => patchEntry(await withFile('zz/bz.txt'), 'zz/bz.txt', { central: (at, out) => out.writeUInt16LE(12, at + 10), local: (at, out) => out.writeUInt16LE(12, at + 8) }), /compression method 12/],
  ['a compression ratio deflate cannot produce (a zip bomb)', async () => patchEntry(await withFile('data/secret/big.in', Buffer.alloc(1024 * 1024)), 'data/secret/big.in', { central: (at, out) => out.writeUInt32LE(500 * 1024 * 1024, at + 24) }), /zip bomb/],
  ['more than 1 GiB declared', async () => declareUncompressedSize(await zipOf(legacyPackage()), 0x30000000), /more than 1 GiB/],
  ['not a zip', async () => Buffer.from('these bytes are not a zip file at all'), /not a zip file/],
];

describe('package zips: one decision for server and runner', () => {
  let j: TestJudge;
  let author: JudgeClient;
  let scratch: string;

  /** Every file under the data directory but the database's own. */
  const storedFiles = () => {
    const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [relative(j.dataDir, join(dir, e.name))]));
    return walk(j.dataDir).filter((f) => !/\.(db|sqlite)(-wal|-shm|-journal)?$/.test(f)).sort();
  };
  const tables = () => tableSnapshot(j, PROBLEM_TABLES);

  beforeAll(async () => {
    j = await TestJudge.start();
    const u = await j.user('packager');
    await j.grant(u.id, 'manager');
    author = await j.signIn(u);
    scratch = mkdtempSync(join(tmpdir(), 'package-safety-'));
  });
  afterAll(async () => {
    await j?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('a well-formed package passes the shared function, and the server takes it', async () => {
    const bytes = await zipOf(legacyPackage());
    expect(await zipRefusal(bytes)).toBeUndefined();
    const p = await author.call(ops.createProblem, { body: { slug: 'safe', name: 'Safe', type: 'standard-io@1' } });
    const pkg = await author.upload('safe.zip', bytes, 'application/zip');
    await author.call(ops.createProblemVersion, { params: { problemId: p.id }, body: { package: { fileId: pkg.id } } });
  });

  let n = 0;
  for (const [what, make, says] of CASES) {
    it(`${what}: refused with the shared reason by the server (422, nothing stored) and by the runner`, async () => {
      const bytes = await make();
      const reason = await zipRefusal(bytes);
      expect(reason, what).toMatch(says);

      const p = await author.call(ops.createProblem, { body: { slug: `unsafe-${++n}`, name: 'Unsafe', type: 'standard-io@1' } });
      const pkg = await author.upload('unsafe.zip', bytes, 'application/zip');
      const [rowsBefore, filesBefore] = [await tables(), storedFiles()];
      const e = await refusedWith(author.call(ops.createProblemVersion, { params: { problemId: p.id }, body: { package: { fileId: pkg.id } } }), 422, 'package.invalid');
      expect(e.detail).toBe(`The package is not a valid ICPC problem package: ${reason}`);
      expect(e.errors?.['package.fileId']).toEqual([reason]);
      expect(await tables()).toBe(rowsBefore);
      expect(storedFiles()).toEqual(filesBefore);
      expect(await author.call(ops.listProblemVersions, { params: { problemId: p.id } })).toEqual([]);

      // the runner, with its own (larger) limits, refuses it for the same reason
      const dest = join(scratch, `out-${n}`);
      const runner = await extractZip(bytes, dest, PACKAGE_CACHE_DEFAULTS).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(runner).toBeInstanceOf(PackageError);
      if (what === 'more than 1 GiB declared') expect((runner as Error).message).toContain('unpacks to more than');
      else expect((runner as Error).message).toBe(reason);
    });
  }
});
