import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, utimesSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from './support/forms.js';
import { ADMIN_PASSWORD, Scratch, initDataDir, judge, query, signIn, startJudge } from './support/judge-process.js';
import { packagedProblem } from './support/packaged-problem.js';
import { legacyPackage, zipOf } from './zips.js';

/** `judge doctor` on a data directory: what it finds, in words, and what --repair may and may not mend. */

const s = new Scratch();
let data: string;
afterAll(() => s.cleanup());

beforeAll(async () => {
  data = join(s.dir(), 'data');
  initDataDir(s, data);
  const served = await startJudge(s, 'serve', data);
  const admin = await signIn(served.url, 'admin', ADMIN_PASSWORD);
  await packagedProblem(admin, { slug: 'sum', name: 'Sum', type: 'standard-io@1' }, await zipOf(legacyPackage('Sum')), 'sum.zip');
  await served.stop();
}, 60_000);

const blobPath = (sha: string) => join(data, 'files', sha.slice(0, 2), sha.slice(2, 4), sha);
const doctor = (...args: string[]) => judge(['doctor', '--data-dir', data, ...args]);

describe('judge doctor', () => {
  it('finds a clean data directory clean', () => {
    const r = doctor();
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('is healthy');
  });

  it('reports a stored file that is missing, naming the problem that uses it, and --repair leaves it reported', () => {
    const [used] = query<{ sha256: string; name: string }>(join(data, 'judge.db'), "SELECT f.sha256, f.name FROM problem_version_files v JOIN files f ON f.id = v.file_id WHERE v.name LIKE '%1.in' LIMIT 1");
    const saved = readFileSync(blobPath(used!.sha256));
    rmSync(blobPath(used!.sha256));
    try {
      const r = doctor();
      expect(r.status).toBe(1);
      expect(r.stdout).toMatch(new RegExp(`problem: file \\S+ \\(.*SHA-256 ${used!.sha256}\\) is missing from the store; used by problem sum version 1`));
      expect(r.stdout).toContain('a missing file must come from a backup');
      const repair = doctor('--repair', '--json');
      expect(repair.status).toBe(1);
      const report = JSON.parse(repair.stdout) as { findings: { kind: string; repaired?: boolean }[]; remaining: number };
      expect(report.findings).toEqual([expect.objectContaining({ kind: 'missing' })]);
      expect(report.findings[0]!.repaired).toBeUndefined();
      expect(existsSync(blobPath(used!.sha256))).toBe(false);
    } finally {
      writeFileSync(blobPath(used!.sha256), saved);
    }
    expect(doctor().status).toBe(0);
  });

  it('reports orphans and upload leftovers; --repair removes old orphans and leftovers, never a referenced file', () => {
    const place = (bytes: Buffer, ageMs: number) => {
      const p = blobPath(sha256(bytes));
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, bytes);
      const t = new Date(Date.now() - ageMs);
      utimesSync(p, t, t);
      return p;
    };
    const old = place(randomBytes(100), 2 * 3_600_000);
    const fresh = place(randomBytes(100), 0);
    const leftover = join(data, 'files', '.incoming', 'upload-half-done');
    writeFileSync(leftover, 'partial bytes');
    const referenced = query<{ sha256: string }>(join(data, 'judge.db'), 'SELECT sha256 FROM files').map((r) => blobPath(r.sha256));

    const r = doctor();
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`problem: ${old.slice(join(data, 'files').length + 1)} is in the store but no file record refers to it`);
    expect(r.stdout).toContain('problem: .incoming/upload-half-done is left over from an upload or a snapshot that did not finish');
    expect(r.stdout).toContain('3 findings, 0 repaired, 3 left');

    const repair = doctor('--repair');
    expect(repair.stdout).toContain('repaired: .incoming/upload-half-done');
    expect(repair.stdout).toMatch(/problem: .* no file record refers to it \(kept: less than an hour old\)/);
    expect(repair.stdout).toContain('3 findings, 2 repaired, 1 left');
    expect(repair.status).toBe(1);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(leftover)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    for (const p of referenced) expect(existsSync(p), p).toBe(true);
    rmSync(fresh);
    expect(doctor().status).toBe(0);
  });

  it('checks a running server through it, and refuses --repair while it runs', async () => {
    const served = await startJudge(s, 'serve', data);
    try {
      const r = doctor('--json');
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ via: 'server', findings: [], remaining: 0 });
      const repair = doctor('--repair');
      expect(repair.status).toBe(2);
      expect(repair.stderr).toContain('stop it before `judge doctor --repair`');
    } finally {
      await served.stop();
    }
    // its snapshot did not stay behind
    expect(doctor().status).toBe(0);
  }, 60_000);

  it('reports a corrupt database', () => {
    const copy = join(s.dir(), 'copy');
    cpSync(data, copy, { recursive: true });
    const fd = openSync(join(copy, 'judge.db'), 'r+');
    writeSync(fd, randomBytes(8192), 0, 8192, 4096 * 3);
    closeSync(fd);
    const r = judge(['doctor', '--data-dir', copy]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/problem: the database (is damaged|cannot be read)/);

    const header = openSync(join(copy, 'judge.db'), 'r+');
    writeSync(header, Buffer.alloc(100, 7), 0, 100, 0);
    closeSync(header);
    const h = judge(['doctor', '--data-dir', copy]);
    expect(h.status).toBe(1);
    expect(h.stdout).toContain('problem: the database cannot be read: file is not a database');
  });
});
