import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// These run the built launcher exactly as an administrator would (`pnpm build` first).
const JUDGE = fileURLToPath(new URL('../bin/judge', import.meta.url));
const CHEAP = { JUDGE_AUTH_ARGON2_MEMORY_KIB: '1024', JUDGE_AUTH_ARGON2_ITERATIONS: '1', JUDGE_LOG_LEVEL: 'warn' };
const env = (extra: Record<string, string> = {}) => {
  const e: Record<string, string> = { ...(process.env as Record<string, string>), ...CHEAP };
  delete e.JUDGE_ADMIN_PASSWORD;
  return { ...e, ...extra };
};

const dirs: string[] = [];
const children: ChildProcess[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'judge-cli-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function judge(args: string[], extraEnv: Record<string, string> = {}) {
  return spawnSync(JUDGE, args, { env: env(extraEnv), encoding: 'utf8', input: '' });
}

/** Starts `judge serve` and resolves with its URL once it listens. */
function serve(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(JUDGE, ['serve', '--data-dir', dataDir, '--port', '0'], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let err = '';
    child.stdout!.on('data', (b: Buffer) => {
      err += b.toString();
      const m = /serving (http:\/\/\S+)\/api\/v1/.exec(err);
      if (m) resolve({ child, url: m[1]! });
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

async function login(url: string, password: string): Promise<number> {
  const r = await fetch(`${url}/api/v1/identity/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin', password }) });
  return r.status;
}

// each test starts `judge` processes (Argon2id, a server): on CI's loaded two cores 30 s were not enough
describe('judge init', { timeout: 120_000 }, () => {
  it('creates the data directory with the admin password from a file, and never overwrites it', async () => {
    const d = join(tempDir(), 'data');
    const pw = join(tempDir(), 'pw');
    writeFileSync(pw, 'first-password-123\n');
    const first = judge(['init', '--data-dir', d, '--admin-password-file', pw]);
    expect(first.status).toBe(0);
    expect(existsSync(join(d, 'judge.db'))).toBe(true);
    for (const sub of ['files', 'logs']) expect(existsSync(join(d, sub))).toBe(true);
    for (const unused of ['outbox', 'keys']) expect(existsSync(join(d, unused))).toBe(false);

    writeFileSync(pw, 'second-password-456\n');
    const again = judge(['init', '--data-dir', d, '--admin-password-file', pw]);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/already initialised; nothing was changed/);

    const { url } = await serve(d);
    expect(await login(url, 'first-password-123')).toBe(200);
    expect(await login(url, 'second-password-456')).toBe(401);
  });

  it('takes JUDGE_ADMIN_PASSWORD, or generates a password and prints it once', async () => {
    const a = join(tempDir(), 'a');
    expect(judge(['init', '--data-dir', a], { JUDGE_ADMIN_PASSWORD: 'from-the-environment' }).status).toBe(0);
    const b = join(tempDir(), 'b');
    const gen = judge(['init', '--data-dir', b]);
    expect(gen.status).toBe(0);
    const printed = /admin \/ (\S+)/.exec(gen.stdout)?.[1];
    expect(printed).toMatch(/^[A-Za-z0-9]{20}$/);
    const { url } = await serve(b);
    expect(await login(url, printed!)).toBe(200);
    const { url: urlA } = await serve(a);
    expect(await login(urlA, 'from-the-environment')).toBe(200);
  });

  it('refuses a password that is too short and creates nothing', () => {
    const d = join(tempDir(), 'data');
    const r = judge(['init', '--data-dir', d], { JUDGE_ADMIN_PASSWORD: 'short' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/10 to 256 characters/);
    expect(existsSync(join(d, 'judge.db'))).toBe(false);
  });
});

describe('judge serve', { timeout: 120_000 }, () => {
  it('refuses a data directory that was never initialised', () => {
    const r = judge(['serve', '--data-dir', join(tempDir(), 'none'), '--port', '0']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/run `judge init/);
  });

  it('refuses a second server on a data directory in use, and stops cleanly on SIGTERM', async () => {
    const d = join(tempDir(), 'data');
    expect(judge(['init', '--data-dir', d], { JUDGE_ADMIN_PASSWORD: 'a-good-password' }).status).toBe(0);
    const { child, url } = await serve(d);
    const second = judge(['serve', '--data-dir', d, '--port', '0']);
    expect(second.status).toBe(2);
    expect(second.stderr).toMatch(/in use by another judge server \(pid \d+/);
    expect((await fetch(`${url}/api/v1/health`)).status).toBe(200);

    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // the lock went with the process: a new server starts at once
    const { url: again } = await serve(d);
    expect((await fetch(`${again}/api/v1/health`)).status).toBe(200);
  });

  it('reports a configuration mistake instead of ignoring it', () => {
    const d = join(tempDir(), 'data');
    expect(judge(['init', '--data-dir', d], { JUDGE_ADMIN_PASSWORD: 'a-good-password' }).status).toBe(0);
    writeFileSync(join(d, 'judge.json'), JSON.stringify({ limits: { jsonBodyByts: 5 } }));
    const r = judge(['serve', '--data-dir', d, '--port', '0']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/jsonBodyByts/);
    const e = judge(['serve', '--data-dir', d, '--port', '0'], { JUDGE_PORT: 'eighty' });
    expect(e.status).toBe(2);
  });

  it('documents every setting and its environment variable in --help', () => {
    const r = judge(['serve', '--help']);
    expect(r.status).toBe(0);
    for (const v of ['JUDGE_PORT', 'JUDGE_PUBLIC_URL', 'JUDGE_LIMITS_UPLOAD_BYTES', 'JUDGE_AUTH_LOCKOUT_MINUTES', 'JUDGE_SOCKET_PING_SECONDS']) expect(r.stdout).toContain(v);
  });
});

describe('judge serve on every interface', { timeout: 120_000 }, () => {
  it("prints the machine's network addresses for students' browsers, and this machine's own", async () => {
    const d = join(tempDir(), 'data');
    expect(judge(['init', '--data-dir', d], { JUDGE_ADMIN_PASSWORD: 'a-good-password' }).status).toBe(0);
    const child = spawn(JUDGE, ['serve', '--data-dir', d, '--port', '0', '--host', '0.0.0.0'], { env: env(), stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(child);
    const line = await new Promise<string>((resolve, reject) => {
      let err = '';
      child.stdout!.on('data', (b: Buffer) => {
        err += b.toString();
        const m = /^Open .*$/m.exec(err);
        if (m) resolve(m[0]);
      });
      child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
    });
    const port = /:(\d+)\/ (?:in|on)/.exec(line)![1];
    const own = Object.values(networkInterfaces()).flatMap((l) => l ?? []).filter((a) => a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.'));
    for (const a of own) expect(line).toContain(`http://${a.address}:${port}/`);
    expect(line).toContain(`http://127.0.0.1:${port}/`);
    expect(line).not.toContain('0.0.0.0');
    // the printed address answers
    expect((await fetch(`http://${own[0]?.address ?? '127.0.0.1'}:${port}/api/v1/health`)).status).toBe(200);
  });
});
