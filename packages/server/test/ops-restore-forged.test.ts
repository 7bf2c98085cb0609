import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyDeclared } from '../src/ops/restore-write.js';
import { restore, type RestoreProgress } from '../src/ops/restore.js';
import { startTimeOf } from '../src/ops/restore-workdir.js';
import { readBackup, randomFiles, sha256, storedFile, withSettings, writeBackup, type GenuineBackup } from './support/forged-backup.js';
import { JUDGE, Scratch, fileHashes, initDataDir, judge, judgeEnv } from './support/judge-process.js';
import { until } from './support/wait.js';

/**
 * Restore takes nothing from an archive on trust: an entry is checked against the manifest before
 * any byte of it is written, and a restore killed half way leaves a folder the next one removes.
 */

const s = new Scratch();
let work: string;
let genuine: GenuineBackup;
afterAll(() => s.cleanup());

beforeAll(() => {
  work = s.dir();
  const data = join(work, 'data');
  initDataDir(s, data);
  const r = judge(['backup', '--data-dir', data, join(work, 'genuine.tar')]);
  if (r.status !== 0) throw new Error(r.stderr);
  return readBackup(join(work, 'genuine.tar')).then((b) => void (genuine = b));
}, 240_000);

/** Everything named like the restore target or its working folder beside it. */
const beside = (target: string) => readdirSync(dirname(target)).filter((n) => n.startsWith(target.split('/').pop()!));

/** Every file under the working folders of a restore into `target`, at this moment. */
const filesBeingWritten = (target: string) =>
  beside(target)
    .filter((n) => n.includes('.restoring-'))
    .flatMap((n) => Object.keys(fileHashes(join(dirname(target), n))));

/**
 * Restores in this process, noting every file written while the archive was still being checked;
 * resolves to the refusal's message, or undefined when the restore succeeded.
 */
async function refusalOf(file: string, target: string): Promise<{ refusal?: string; writtenWhileChecking: string[]; checks: number }> {
  const writtenWhileChecking: string[] = [];
  let checks = 0;
  const progress = (p: RestoreProgress) => {
    if (p.phase !== 'checking') return;
    checks++;
    writtenWhileChecking.push(...filesBeingWritten(target));
  };
  try {
    await restore(file, target, { progress });
    return { writtenWhileChecking, checks };
  } catch (e) {
    return { refusal: (e as Error).message, writtenWhileChecking, checks };
  }
}

describe('judge restore of a forged archive', () => {
  it('refuses an entry the manifest does not list before writing any of it, and leaves nothing', async () => {
    // a stored file of 8 MiB that the manifest leaves out, first in the archive
    const extra = { ...storedFile(Buffer.alloc(8 * 1024 * 1024, 7)), listed: false as const };
    const file = join(work, 'extra.tar');
    await writeBackup(file, genuine, [extra, ...genuine.entries]);
    const target = join(work, 'from-extra');
    const r = await refusalOf(file, target);
    expect(r.refusal).toBe(`${extra.name} is in the archive but not in its manifest`);
    expect(r.checks, 'the archive was read while being checked').toBeGreaterThan(0);
    expect(r.writtenWhileChecking).toEqual([]);
    expect(beside(target)).toEqual([]);

    const cli = judge(['restore', file, '--data-dir', target]);
    expect(cli.status).toBe(2);
    expect(cli.stderr).toBe(`judge: ${extra.name} is in the archive but not in its manifest\n`);
    expect(beside(target)).toEqual([]);
  }, 240_000);

  it('refuses an entry larger than its manifest says before writing any of it', async () => {
    const big = storedFile(Buffer.alloc(4 * 1024 * 1024, 1));
    // the manifest declares the first KiB of it
    const declared = { size: 1024, sha256: sha256(big.data.subarray(0, 1024)) };
    const file = join(work, 'larger.tar');
    await writeBackup(file, genuine, [...genuine.entries, { ...big, listed: declared }]);
    const target = join(work, 'from-larger');
    const r = await refusalOf(file, target);
    expect(r.refusal).toMatch(new RegExp(`^${big.name} does not match the manifest \\(altered or damaged: ${big.data.length} bytes`));
    expect(r.writtenWhileChecking).toEqual([]);
    expect(beside(target)).toEqual([]);
  }, 240_000);

  it('stops writing an entry at the size its manifest declares when the archive changed after the check', async () => {
    const into = s.dir();
    const path = join(into, 'entry');
    const chunks = [Buffer.alloc(1000, 1), Buffer.alloc(1000, 2), Buffer.alloc(1000, 3)];
    const whole = Buffer.concat(chunks);
    const declared = { path: 'files/ab/cd/x', size: 2000, sha256: sha256(whole.subarray(0, 2000)) };
    const fd = openSync(path, 'wx', 0o600);
    await expect(copyDeclared((async function* () { yield* chunks; })(), declared, fd)).rejects.toThrow('files/ab/cd/x in the archive is larger than its manifest says (2000 bytes)');
    closeSync(fd);
    expect(readFileSync(path)).toEqual(whole.subarray(0, 2000));

    // end to end: the archive is swapped for a forged one (same file) between the check and the writing
    const swapped = join(work, 'swapped.tar');
    const bigger = storedFile(Buffer.alloc(3 * 1024 * 1024, 9));
    const settings = withSettings(genuine.entries, { printing: { command: 'lp' } });
    await writeBackup(swapped, genuine, settings);
    const forged = join(work, 'forged-later.tar');
    const fake = genuine.entries.find((e) => e.name.startsWith('files/')) ?? genuine.entries.find((e) => e.name === 'judge.db')!;
    await writeBackup(forged, genuine, settings.map((e) => (e.name === fake.name ? { ...e, data: Buffer.concat([e.data, bigger.data]) } : e)));
    const target = join(work, 'from-swapped');
    const refused = restore(swapped, target, {
      confirmCommands: () => {
        writeFileSync(swapped, readFileSync(forged));
        return true;
      },
    });
    await expect(refused).rejects.toThrow(`${fake.name} in the archive is larger than its manifest says (${fake.data.length} bytes); the archive changed while it was restored`);
    expect(beside(target)).toEqual([]);
  }, 240_000);

  it('refuses links and names outside a backup, writing nothing anywhere', async () => {
    const outside = join(work, 'outside');
    mkdirSync(outside);
    for (const [label, bad] of [
      ['a link', { name: 'files/ab/cd/link', data: Buffer.alloc(0), type: 'symlink' as const, linkname: outside }],
      ['a climb', { name: '../outside/escaped', data: Buffer.from('x') }],
      ['an absolute name', { name: join(outside, 'abs'), data: Buffer.from('x') }],
      ['a folder', { name: 'files/', data: Buffer.alloc(0), type: 'directory' as const }],
    ] as const) {
      const file = join(work, `bad-${label.replace(/ /g, '-')}.tar`);
      await writeBackup(file, genuine, [bad, ...genuine.entries]);
      const target = join(work, `from-bad-${label.replace(/ /g, '-')}`);
      const r = await refusalOf(file, target);
      expect(r.refusal, label).toMatch(/^the archive holds an entry a judge backup does not/);
      expect(r.writtenWhileChecking, label).toEqual([]);
      expect(beside(target), label).toEqual([]);
    }
    expect(readdirSync(outside)).toEqual([]);
  }, 240_000);
});

describe('a restore that was stopped', () => {
  it("a killed restore's working folder is removed by the next restore, which says so", async () => {
    const file = join(work, 'big.tar');
    await writeBackup(file, genuine, [...genuine.entries, ...randomFiles(4, 16 * 1024 * 1024)]);
    const target = join(work, 'from-big');
    const child = s.track(spawn(JUDGE, ['restore', file, '--data-dir', target], { env: judgeEnv(), stdio: 'ignore' }));
    const leftover = await until('the restore under way', () => beside(target).find((n) => n.includes('.restoring-')), 180_000, 5);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(beside(target)).toEqual([leftover]);

    const again = judge(['restore', join(work, 'genuine.tar'), '--data-dir', target, '--json']);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain(`judge: removed ${join(work, leftover)}, left by a restore that was stopped before it finished`);
    expect((JSON.parse(again.stdout) as { leftoversRemoved: string[] }).leftoversRemoved).toEqual([join(work, leftover)]);
    expect(beside(target)).toEqual(['from-big']);
    expect(existsSync(join(target, 'judge.db'))).toBe(true);
  }, 240_000);

  it('leaves a running restore its folder and refuses to race it; removes only its own pattern, never through a link', () => {
    const target = join(work, 'contested');
    const me = `${process.pid}-${startTimeOf(process.pid)}`;
    // this test's own process stands for a restore that still runs
    const running = `${target}.restoring-${me}-0123456789ab`;
    mkdirSync(running);
    writeFileSync(join(running, 'judge.db'), 'half');
    const r = judge(['restore', join(work, 'genuine.tar'), '--data-dir', target]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`judge: another restore into ${target} is under way (process ${process.pid}`);
    expect(readFileSync(join(running, 'judge.db'), 'utf8')).toBe('half');
    expect(beside(target)).toEqual([running.split('/').pop()]);

    // the same pid started at another time: the pid was reused, the restore that owned it is gone
    const reused = `${target}.restoring-${process.pid}-1-0123456789ab`;
    renameSync(running, reused);
    const kept = join(work, 'kept');
    mkdirSync(kept);
    writeFileSync(join(kept, 'precious'), 'mine');
    const link = `${target}.restoring-999999999-5-aaaaaaaaaaaa`;
    symlinkSync(kept, link);
    const mine = `${target}.restoring-notes`;
    mkdirSync(mine);
    // named as restores named their folder before it held its owner: whose it is cannot be told
    const older = `${target}.restoring-0123456789ab`;
    mkdirSync(older);
    const ok = judge(['restore', join(work, 'genuine.tar'), '--data-dir', target]);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stderr).toContain(`judge: removed ${reused}, left by a restore that was stopped`);
    expect(existsSync(reused)).toBe(false);
    expect(statSync(mine).isDirectory()).toBe(true);
    expect(ok.stderr).toContain(`judge: ${older} looks like the leftover of an earlier judge's restore; remove it by hand once no restore runs`);
    expect(statSync(older).isDirectory()).toBe(true);
    expect(readFileSync(join(link, 'precious'), 'utf8')).toBe('mine');
  }, 240_000);
});
