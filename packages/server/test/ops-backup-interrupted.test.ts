import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { fileForm } from './support/forms.js';
import { ADMIN_PASSWORD, JUDGE, Scratch, initDataDir, judge, judgeEnv, signIn, startJudge, type Served } from './support/judge-process.js';
import { until } from './support/wait.js';

/**
 * A backup killed half way leaves no archive under the name asked for, a damaged archive is
 * refused by restore with nothing left behind, and the next backup succeeds.
 */

const s = new Scratch();
let work: string;
let data: string;
let served: Served;
afterAll(() => s.cleanup());

beforeAll(async () => {
  work = s.dir();
  data = join(work, 'data');
  initDataDir(s, data);
  served = await startJudge(s, 'serve', data);
  const admin = await signIn(served.url, 'admin', ADMIN_PASSWORD);
  // random bytes do not compress: enough of them keep a gzip backup busy for seconds
  for (let i = 0; i < 6; i++) await admin.call(ops.uploadFile, { form: fileForm(randomBytes(12 * 1024 * 1024), `big-${i}.bin`) });
}, 120_000);

/** Nothing named like the restore target or its working copy is beside it. */
const leftovers = (target: string) => readdirSync(dirname(target)).filter((n) => n.startsWith(target.split('/').pop()!));

describe('an interrupted backup and a damaged archive', () => {
  it('a backup killed with SIGKILL leaves no archive, and the next one succeeds', async () => {
    const file = join(work, 'nightly.tgz');
    const child = s.track(spawn(JUDGE, ['backup', '--data-dir', data, file], { env: judgeEnv(), stdio: 'ignore' }));
    await until('the backup half way', () => (existsSync(`${file}.partial`) && statSync(`${file}.partial`).size > 2 * 1024 * 1024 ? true : undefined), 60_000, 20);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(existsSync(file)).toBe(false);
    expect(served.child.exitCode).toBeNull();

    const again = judge(['backup', '--data-dir', data, file, '--json']);
    expect(again.status, again.stderr).toBe(0);
    expect(existsSync(file)).toBe(true);
    expect(existsSync(`${file}.partial`)).toBe(false);
    expect((JSON.parse(again.stdout) as { storedFiles: number }).storedFiles).toBe(6);

    // a backup never overwrites a file
    const twice = judge(['backup', '--data-dir', data, file]);
    expect(twice.status).toBe(2);
    expect(twice.stderr).toContain('exists already');

    const target = join(work, 'restored');
    const ok = judge(['restore', file, '--data-dir', target]);
    expect(ok.status, ok.stderr).toBe(0);
    expect(readdirSync(join(target, 'files')).length).toBeGreaterThan(0);
  }, 120_000);

  it('a truncated archive is refused in words and leaves nothing behind', () => {
    const file = join(work, 'whole.tgz');
    expect(judge(['backup', '--data-dir', data, file]).status).toBe(0);
    const cut = join(work, 'cut.tgz');
    const bytes = readFileSync(file);
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const target = join(work, 'from-cut');
    const r = judge(['restore', cut, '--data-dir', target]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/judge: the archive cannot be read to its end: it is truncated or damaged/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(leftovers(target)).toEqual([]);
  }, 60_000);

  it('an altered archive is refused, naming the entry that does not match its manifest', () => {
    const file = join(work, 'plain.tar');
    expect(judge(['backup', '--data-dir', data, file]).status).toBe(0);
    const bytes = readFileSync(file);
    // the first entry is the database: a byte inside its content, past the 512-byte tar header
    bytes[512 + 4096] = bytes[512 + 4096]! ^ 0xff;
    const altered = join(work, 'altered.tar');
    writeFileSync(altered, bytes);
    const target = join(work, 'from-altered');
    const r = judge(['restore', altered, '--data-dir', target]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('judge: judge.db does not match the manifest');
    expect(leftovers(target)).toEqual([]);
  }, 60_000);

  it('restore refuses a directory that is not empty and a file that is not a backup', () => {
    const full = join(work, 'full');
    mkdirSync(full);
    writeFileSync(join(full, 'notes.txt'), 'mine\n');
    const r = judge(['restore', join(work, 'plain.tar'), '--data-dir', full]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('exists and is not empty');
    expect(readdirSync(full)).toEqual(['notes.txt']);

    const junk = join(work, 'junk.tar');
    writeFileSync(junk, randomBytes(4096));
    const target = join(work, 'from-junk');
    const j = judge(['restore', junk, '--data-dir', target]);
    expect(j.status).toBe(2);
    expect(j.stderr).toMatch(/^judge: /);
    expect(leftovers(target)).toEqual([]);
    expect(judge(['restore', join(work, 'nothing.tar'), '--data-dir', target]).stderr).toContain('there is no backup');
  }, 60_000);
});
