import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { ADMIN_PASSWORD, JUDGE, Scratch, initDataDir, judge, judgeEnv, query, signIn, startJudge } from './support/judge-process.js';

/**
 * `judge reset-password` for a lost password: no API and no signed-in administrator needed. On a
 * stopped server it writes the database; on a running one it asks the server, whose cached
 * sessions must end as well.
 */

const s = new Scratch();
afterAll(() => s.cleanup());
const run = promisify(execFile);

/** The status of an authenticated request made with a token. */
async function accountStatus(url: string, token: string): Promise<number> {
  return (await fetch(`${url}/api/v1/account`, { headers: { authorization: `Bearer ${token}` } })).status;
}

async function loginStatus(url: string, login: string, password: string): Promise<number> {
  const r = await fetch(`${url}/api/v1/identity/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: login, password }) });
  return r.status;
}

describe('judge reset-password', () => {
  it('offline: a generated password signs in, the old one does not, the lockout is cleared and sessions end', async () => {
    const work = s.dir();
    const data = join(work, 'data');
    initDataDir(s, data);
    writeFileSync(join(data, 'judge.json'), JSON.stringify({ auth: { lockoutFailures: 3 } }));
    let served = await startJudge(s, 'serve', data);
    const admin = await signIn(served.url, 'admin', ADMIN_PASSWORD);
    const pupil = await admin.call(ops.createUser, { body: { username: 'Pupil' } });
    const token = admin.accessToken!;
    expect(await accountStatus(served.url, token)).toBe(200);
    for (let i = 0; i < 3; i++) expect(await loginStatus(served.url, 'admin', 'a-wrong-password')).toBe(401);
    // locked out: even the right password is refused now
    expect(await loginStatus(served.url, 'admin', ADMIN_PASSWORD)).not.toBe(200);
    await served.stop();

    const r = judge(['reset-password', '--data-dir', data, 'ADMIN']);
    expect(r.status, r.stderr).toBe(0);
    const issued = /admin \/ (\S+)/.exec(r.stdout)?.[1];
    expect(issued).toBeDefined();
    expect(r.stdout).toContain('printed this once');
    expect(r.stdout).toContain('Lockout cleared; 1 session ended.');
    expect(query<{ n: number }>(join(data, 'judge.db'), "SELECT count(*) AS n FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.username = 'admin' AND s.ended_at IS NULL")[0]!.n).toBe(0);

    const pwFile = join(work, 'pupil-pw');
    writeFileSync(pwFile, 'chosen-by-the-teacher\n');
    const j = judge(['reset-password', '--data-dir', data, 'pupil', '--password-file', pwFile, '--json']);
    expect(j.status, j.stderr).toBe(0);
    expect(JSON.parse(j.stdout)).toEqual({ userId: pupil.userId, username: 'Pupil', sessionsEnded: 0, via: 'database' });

    served = await startJudge(s, 'serve', data);
    expect(await accountStatus(served.url, token)).toBe(401);
    expect(await loginStatus(served.url, 'admin', ADMIN_PASSWORD)).toBe(401);
    expect(await loginStatus(served.url, 'admin', issued!)).toBe(200);
    expect(await loginStatus(served.url, 'pupil', 'chosen-by-the-teacher')).toBe(200);
    expect(await loginStatus(served.url, 'pupil', pupil.password)).toBe(401);
    await served.stop();
  }, 90_000);

  it('refuses an unknown user and a short password, changing nothing', () => {
    const work = s.dir();
    const data = join(work, 'data');
    initDataDir(s, data);
    const before = query<{ password_hash: string }>(join(data, 'judge.db'), 'SELECT password_hash FROM users');
    const r = judge(['reset-password', '--data-dir', data, 'ghost']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('judge: there is no account named "ghost"');
    expect(r.stdout).toBe('');
    const short = join(work, 'short');
    writeFileSync(short, 'short\n');
    const t = judge(['reset-password', '--data-dir', data, 'admin', '--password-file', short]);
    expect(t.status).toBe(2);
    expect(t.stderr).toContain('the password must have 10 to 256 characters');
    expect(query<{ password_hash: string }>(join(data, 'judge.db'), 'SELECT password_hash FROM users')).toEqual(before);
    expect(judge(['reset-password', '--data-dir', join(work, 'none'), 'admin']).stderr).toContain('holds no judge database');
  }, 60_000);

  it('while the server runs: the server does it, and a signed-in session ends at once', async () => {
    const data = join(s.dir(), 'data');
    initDataDir(s, data);
    const served = await startJudge(s, 'serve', data);
    const admin = await signIn(served.url, 'admin', ADMIN_PASSWORD);
    // the server caches a signed-in token: this request puts it in the cache
    expect(await accountStatus(served.url, admin.accessToken!)).toBe(200);
    const { stdout } = await run(JUDGE, ['reset-password', '--data-dir', data, 'admin', '--json'], { env: judgeEnv() });
    const r = JSON.parse(stdout) as { password: string; via: string; sessionsEnded: number };
    expect(r).toMatchObject({ via: 'server', sessionsEnded: 1, username: 'admin' });
    expect(await accountStatus(served.url, admin.accessToken!)).toBe(401);
    expect(await loginStatus(served.url, 'admin', ADMIN_PASSWORD)).toBe(401);
    expect(await loginStatus(served.url, 'admin', r.password)).toBe(200);
    const ghost = judge(['reset-password', '--data-dir', data, 'ghost']);
    expect(ghost.status).toBe(2);
    expect(ghost.stderr.trim()).toBe('judge: there is no account named "ghost"');
    await served.stop();
  }, 60_000);
});
