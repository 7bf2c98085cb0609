import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { codeForm } from './support/forms.js';
import { ADMIN_PASSWORD, JUDGE, Scratch, fileHashes, initDataDir, judge, judgeEnv, query, signIn, startJudge, tableCounts, untar } from './support/judge-process.js';
import { packagedProblem } from './support/packaged-problem.js';
import { until } from './support/wait.js';
import { legacyPackage, zipOf } from './zips.js';

/**
 * A backup taken while `judge up` judges: the archive holds the database as it was at one moment
 * and every stored file it refers to, and a restore of it serves the same data.
 */

const UID_BASE = '62600';
const run = promisify(execFile);
const s = new Scratch();
afterAll(() => s.cleanup());

// slow enough that the backup runs while the runner still has work
const SLOW_SUM = 'import time\ntime.sleep(0.4)\na, b = map(int, input().split())\nprint(a + b)\n';

describe('judge backup and judge restore', () => {
  it('a backup taken while submissions are judged restores to a judge that serves the same data', async () => {
    const work = s.dir();
    const data = join(work, 'data');
    initDataDir(s, data);
    const up = await startJudge(s, 'up', data, ['--runner-uid-base', UID_BASE]);
    const admin = await signIn(up.url, 'admin', ADMIN_PASSWORD);
    const act = await admin.call(ops.createActivity, { body: { slug: 'spring', name: 'Spring', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', joinPolicy: 'open', unlisted: false } });
    const series = await admin.call(ops.createSeries, { params: { idOrSlug: act.slug }, body: { slug: 'main', name: 'Main' } });
    const { problem } = await packagedProblem(admin, { slug: 'sum', name: 'Sum', type: 'standard-io@1' }, await zipOf(legacyPackage('Sum')), 'sum.zip');
    await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug: 'sum' } });
    const issued = await admin.call(ops.createUser, { body: { username: 'pupil' } });
    const pupil = await signIn(up.url, issued.username, issued.password);
    await pupil.call(ops.enrol, { params: { idOrSlug: act.slug }, body: {} });
    const submitted = [];
    for (let i = 0; i < 6; i++) submitted.push(await pupil.call(ops.submit, { params: { idOrSlug: act.slug, problemSlug: 'sum' }, form: codeForm(`${SLOW_SUM}# ${i}\n`, 'sum.py') }));

    const file = join(work, 'spring.tgz');
    const { stdout } = await run(JUDGE, ['backup', '--data-dir', data, file, '--json'], { env: judgeEnv() });
    const summary = JSON.parse(stdout) as { via: string; storedFiles: number; tables: Record<string, number> };
    expect(summary.via).toBe('server');
    // the backup must not need the data directory's lock: the server kept it and kept serving
    expect(up.child.exitCode).toBeNull();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(existsSync(`${file}.partial`)).toBe(false);

    // the snapshot as the archive holds it: the database and the stored files at the backup point
    const snap = untar(s, file);
    const states = query<{ state: string }>(join(snap, 'judge.db'), 'SELECT state FROM submissions').map((r) => r.state);
    expect(states).toHaveLength(6);
    expect(states.some((st) => st !== 'completed'), 'the backup was taken while submissions were being judged').toBe(true);
    const manifest = JSON.parse(readFileSync(join(snap, 'manifest.json'), 'utf8')) as { tables: Record<string, number>; entries: { path: string; size: number; sha256: string }[] };
    const snapFiles = fileHashes(join(snap, 'files'));
    expect(Object.keys(snapFiles).length).toBe(summary.storedFiles);
    expect(Object.keys(snapFiles).length).toBeGreaterThan(0);
    for (const [rel, sha] of Object.entries(snapFiles)) expect(rel.endsWith(sha), rel).toBe(true);
    const snapTables = tableCounts(join(snap, 'judge.db'));
    expect(manifest.tables).toEqual(snapTables);
    // every file row of the snapshot has its bytes in the archive
    const referenced = query<{ sha256: string }>(join(snap, 'judge.db'), 'SELECT DISTINCT sha256 FROM files').map((r) => r.sha256);
    expect(referenced.sort()).toEqual(Object.values(snapFiles).sort());
    // judging goes on after the backup
    await until('every submission judged', async () => ((await admin.call(ops.listSubmissions, { query: { activityId: act.id } })).items.every((x) => x.state === 'completed') ? true : undefined), 90_000, 200);
    await up.stop();

    const restored = join(work, 'restored');
    const r = judge(['restore', file, '--data-dir', restored]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`judge serve --data-dir ${restored}`);
    expect(tableCounts(join(restored, 'judge.db'))).toEqual(snapTables);
    expect(fileHashes(join(restored, 'files'))).toEqual(snapFiles);
    expect(fileHashes(join(restored, 'runner'))).toEqual(fileHashes(join(snap, 'runner')));
    expect(statSync(join(restored, 'runner', 'key.json')).mode & 0o777).toBe(0o600);

    const served = await startJudge(s, 'serve', restored);
    const again = await signIn(served.url, 'admin', ADMIN_PASSWORD);
    const listed = await again.call(ops.listSubmissions, { query: { activityId: act.id } });
    const atBackup = query<{ id: string; state: string }>(join(snap, 'judge.db'), 'SELECT id, state FROM submissions ORDER BY id');
    expect(listed.items.map((x) => ({ id: x.id, state: x.state })).sort((a, b) => a.id.localeCompare(b.id))).toEqual(atBackup);
    expect(listed.items.map((x) => x.id).sort()).toEqual(submitted.map((x) => x.id).sort());
    // a stored file of the snapshot is served from the restored store
    const detail = await again.call(ops.getSubmission, { params: { id: submitted[0]!.id } });
    const bytes = await fetch(`${served.url}/api/v1/files/${detail.files[0]!.fileId}`, { headers: { authorization: `Bearer ${again.accessToken!}` } });
    expect(bytes.status).toBe(200);
    expect(await bytes.text()).toBe(`${SLOW_SUM}# 0\n`);
    await served.stop();
  }, 180_000);
});
