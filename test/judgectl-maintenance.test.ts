import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { ADMIN_PASSWORD, TestJudge, type TestUser } from '../packages/server/test/harness.js';
import { barrier, open as openStream } from '../packages/server/test/support/socket.js';

// `judgectl maintenance`, `judgectl broadcast` and `judgectl mail test` with the built launcher (`pnpm build` first),
// each call a child process as typed in a terminal, against a real server.
const CTL = fileURLToPath(new URL('../bin/judgectl', import.meta.url));

// each call is a Node process of its own: on a loaded machine a dozen outlast the default timeout
describe('judgectl maintenance, broadcast and mail test', { timeout: 300_000 }, () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let home: string;
  let pw: string;
  let pupil: TestUser;
  // asynchronous on purpose: the server under test runs in this process and must keep answering
  const ctl = (...args: string[]) =>
    new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(CTL, args, { encoding: 'utf8', env: { ...process.env, JUDGECTL_CONFIG_DIR: home, JUDGECTL_PASSWORD: '' } }, (err, stdout, stderr) =>
        resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
      child.stdin?.end();
    });
  const signIn = async (username: string, password: string) => {
    writeFileSync(pw, `${password}\n`);
    const r = await ctl('login', '--server', j.url, '--username', username, '--password-file', pw);
    expect(r.status, r.stderr).toBe(0);
  };
  const health = async () => ((await (await fetch(`${j.url}/api/v1/health`)).json()) as { maintenance?: string }).maintenance;

  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
    home = mkdtempSync(join(tmpdir(), 'judgectl-maint-'));
    pw = join(home, 'pw');
    pupil = await j.user('maint-pupil');
  });
  afterAll(async () => {
    await j.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('shows the level, drains, closes and reopens, in a table and as JSON', async () => {
    await signIn('admin', ADMIN_PASSWORD);
    const shown = await ctl('maintenance');
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/level\s*│?\s*open \(serving everything\)/);

    const drain = await ctl('maintenance', 'drain', '--reason', 'new judge version', '--json');
    expect(drain.status, drain.stderr).toBe(0);
    expect(JSON.parse(drain.stdout)).toEqual({ level: 'draining', since: expect.any(String), reason: 'new judge version' });
    expect(await health()).toBe('draining');

    const on = await ctl('maintenance', 'on');
    expect(on.status, on.stderr).toBe(0);
    expect(on.stdout).toMatch(/closed \(closed to all but administrators\)/);
    expect(on.stdout).toMatch(/new judge version/);
    expect(await health()).toBe('closed');
    // closed: an administrator still signs in and reads it; everybody else is turned away
    await signIn('admin', ADMIN_PASSWORD);
    expect(JSON.parse((await ctl('maintenance', '--json')).stdout)).toMatchObject({ level: 'closed' });
    writeFileSync(pw, `${pupil.password}\n`);
    const refused = await ctl('login', '--server', j.url, '--username', pupil.username, '--password-file', pw);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/503 server\.maintenance/);

    const off = await ctl('maintenance', 'off', '--json');
    expect(off.status, off.stderr).toBe(0);
    expect(JSON.parse(off.stdout)).toEqual({ level: 'open' });
    expect(await health()).toBeUndefined();
  });

  it('refuses a non-administrator and a switch it does not know, changing nothing', async () => {
    await signIn(pupil.username, pupil.password);
    const r = await ctl('maintenance', 'on');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/403 forbidden/);
    const b = await ctl('broadcast', 'hello');
    expect(b.status).toBe(1);
    expect(b.stderr).toMatch(/403 forbidden/);
    await signIn('admin', ADMIN_PASSWORD);
    const bad = await ctl('maintenance', 'sideways');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/sideways/);
    const badType = await ctl('broadcast', '--type', 'critical', 'hello');
    expect(badType.status).toBe(1);
    expect(badType.stderr).toMatch(/critical/);
    expect(await admin.call(ops.getMaintenance)).toEqual({ level: 'open' });
  });

  it('broadcasts to every signed-in session, with a type', async () => {
    await signIn('admin', ADMIN_PASSWORD);
    const c = j.anonymous();
    await c.loginWithCookie(pupil.username, pupil.password);
    const stream = await openStream(c);
    const sent = await ctl('broadcast', '--type', 'warning', 'Ten', 'minutes', 'left');
    expect(sent.status, sent.stderr).toBe(0);
    expect(sent.stdout).toMatch(/Sent to every signed-in session \(warning\)/);
    const json = await ctl('broadcast', 'Lunch', '--json');
    expect(JSON.parse(json.stdout)).toEqual({ sent: true, type: 'info', message: 'Lunch' });
    const [frames] = await barrier(admin, [stream]);
    expect(frames!.filter((f) => f.type === 'systemMessage').map((f) => f.data)).toEqual([
      { type: 'warning', message: 'Ten minutes left' },
      { type: 'info', message: 'Lunch' },
    ]);
    stream.close();
  });

  it('mail test: writes to the outbox with no SMTP server set and says where; refuses a bad address and a non-administrator', async () => {
    await signIn('admin', ADMIN_PASSWORD);
    const sent = await ctl('mail', 'test', 'teacher@school.example');
    expect(sent.status, sent.stderr).toBe(0);
    expect(sent.stdout).toMatch(/^No SMTP server is set \(mail\.smtpUrl\): the message to teacher@school\.example from judge@\S+ was written to outbox\/[\w-]+\.eml in the data directory/);
    const json = await ctl('mail', 'test', 'head@school.example', '--json');
    expect(json.status, json.stderr).toBe(0);
    const r = JSON.parse(json.stdout) as { transport: string; file: string };
    expect(r).toMatchObject({ transport: 'outbox', file: expect.stringMatching(/\.eml$/) });
    expect(readdirSync(join(j.dataDir, 'outbox'))).toHaveLength(2);
    expect(readdirSync(join(j.dataDir, 'outbox'))).toContain(r.file);

    const bad = await ctl('mail', 'test', 'not-an-address');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/422/);
    await signIn(pupil.username, pupil.password);
    const refused = await ctl('mail', 'test', 'teacher@school.example');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/403 forbidden/);
    expect(readdirSync(join(j.dataDir, 'outbox'))).toHaveLength(2);
  });
});
