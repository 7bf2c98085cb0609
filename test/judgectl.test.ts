import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, TestJudge } from '../packages/server/test/harness.js';

// Runs the built launcher as an administrator would (`pnpm build` first).
const CTL = fileURLToPath(new URL('../bin/judgectl', import.meta.url));

describe('judgectl sessions', () => {
  let j: TestJudge;
  let home: string;
  let pw: string;
  // asynchronous on purpose: the server under test runs in this process and must keep answering
  const ctl = (...args: string[]) =>
    new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(CTL, args, { encoding: 'utf8', env: { ...process.env, JUDGECTL_CONFIG_DIR: home, JUDGECTL_PASSWORD: '' } }, (err, stdout, stderr) =>
        resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
      child.stdin?.end();
    });

  beforeAll(async () => {
    j = await TestJudge.start();
    home = mkdtempSync(join(tmpdir(), 'judgectl-'));
    pw = join(home, 'pw');
    writeFileSync(pw, `${ADMIN_PASSWORD}\n`);
  });
  afterAll(async () => {
    await j.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('logs in, keeps the tokens readable by the owner only, says who it is, and logs out', async () => {
    const login = await ctl('login', '--server', j.url, '--username', 'admin', '--password-file', pw);
    expect(login.status, login.stderr).toBe(0);
    expect(login.stdout).toMatch(/Signed in to .* as admin/);
    expect(statSync(join(home, 'credentials.json')).mode & 0o777).toBe(0o600);

    const who = await ctl('whoami', '--json');
    expect(who.status).toBe(0);
    const me = JSON.parse(who.stdout);
    expect(me).toMatchObject({ username: 'admin' });
    expect(me.permissions).toContain('system:administrator');

    expect((await ctl('logout')).status).toBe(0);
    expect(existsSync(join(home, 'credentials.json'))).toBe(false);
    const after = await ctl('whoami');
    expect(after.status).toBe(1);
    expect(after.stderr).toMatch(/not signed in/);
  });

  it('ends the server session on logout, so the stored token is dead', async () => {
    expect((await ctl('login', '--server', j.url, '--username', 'admin', '--password-file', pw)).status).toBe(0);
    const { accessToken } = JSON.parse((await import('node:fs')).readFileSync(join(home, 'credentials.json'), 'utf8'));
    expect((await ctl('logout')).status).toBe(0);
    const r = await fetch(`${j.url}/api/v1/account`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(r.status).toBe(401);
  });

  it('explains bad credentials and an unreachable server, and stores nothing', async () => {
    writeFileSync(join(home, 'wrong'), 'not-the-password\n');
    const bad = await ctl('login', '--server', j.url, '--username', 'admin', '--password-file', join(home, 'wrong'));
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/Failed \(401 unauthenticated\)/);
    const away = await ctl('login', '--server', 'http://127.0.0.1:9', '--username', 'admin', '--password-file', pw);
    expect(away.status).toBe(1);
    expect(away.stderr).toMatch(/cannot reach the judge at http:\/\/127\.0\.0\.1:9/);
    const nonsense = await ctl('login', '--server', 'not a url', '--username', 'admin', '--password-file', pw);
    expect(nonsense.status).toBe(1);
    expect(nonsense.stderr).toMatch(/not a URL/);
    expect(existsSync(join(home, 'credentials.json'))).toBe(false);
  });
});
