import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from '../packages/server/test/support/wait.js';

/**
 * `judge up --tls-cert --tls-key`: the server answers HTTPS with a certificate made here, and its
 * local runner, which cannot check that certificate against 127.0.0.1, still connects (over the
 * plain listener on 127.0.0.1). Sandbox uids from 62700 are this file's.
 */

const JUDGE = fileURLToPath(new URL('../bin/judge', import.meta.url));

describe('judge up with built-in HTTPS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'judge-up-tls-'));
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves https, says so, and its local runner connects', async () => {
    const cert = join(dir, 'judge.crt');
    const key = join(dir, 'judge.key');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
    const env = { ...process.env, JUDGE_AUTH_ARGON2_MEMORY_KIB: '1024', JUDGE_AUTH_ARGON2_ITERATIONS: '1', JUDGE_LOG_LEVEL: 'warn', JUDGE_ADMIN_PASSWORD: 'tls-admin-password' };
    let out = '';
    child = spawn(JUDGE, ['up', '--data-dir', join(dir, 'data'), '--port', '0', '--runner-uid-base', '62700', '--tls-cert', cert, '--tls-key', key], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    const url = await until('judge up to serve and judge', () => {
      if (child!.exitCode !== null) throw new Error(`judge up exited ${child!.exitCode}: ${out}`);
      const u = /serving (https:\/\/\S+)\/api\/v1/.exec(out);
      return u && /runner local connected/.test(out) ? u[1]! : undefined;
    }, 60_000, 50);
    expect(out).toContain(`Open ${url}/ in a browser.`);
    const health = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      request(`${url}/api/v1/health`, { ca: readFileSync(cert) }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      })
        .on('error', reject)
        .end();
    });
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ localRunner: { state: 'running', restarts: 0 } });
    child.kill('SIGTERM');
    expect(await new Promise<number | null>((r) => child!.once('exit', (c) => r(c)))).toBe(0);
  }, 90_000);
});
