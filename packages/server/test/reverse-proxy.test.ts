import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ADMIN_PASSWORD, TestJudge } from './harness.js';
import { freePort, https } from './support/https-request.js';
import { until } from './support/wait.js';

/**
 * The reverse-proxy recipe of docs/operations.md, as written there: Debian's
 * nginx terminates TLS with a self-signed certificate made here and passes requests and the event
 * socket to a judge with `publicUrl` and `trustProxy`. Skipped, saying so, without nginx
 * (`./install.sh --browser` installs it).
 */

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
const README = fileURLToPath(new URL('../../../docs/operations.md', import.meta.url));

/** The recipe's nginx block, taken from the guide so that the test checks what people copy. */
function recipe(): string {
  const text = readFileSync(README, 'utf8');
  const block = /```nginx\n([\s\S]*?)```/.exec(text);
  if (!block) throw new Error('docs/operations.md has no nginx block');
  return block[1]!;
}

describe.skipIf(!NGINX)('the reverse-proxy recipe with nginx', () => {
  const dir = mkdtempSync(join(tmpdir(), 'judge-nginx-'));
  let j: TestJudge;
  let nginx: ChildProcess | undefined;
  let publicUrl = '';
  let ca: Buffer;
  let log = '';

  beforeAll(async () => {
    const cert = join(dir, 'judge.crt');
    const key = join(dir, 'judge.key');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
    ca = readFileSync(cert);
    const port = await freePort();
    publicUrl = `https://127.0.0.1:${port}`;
    j = await TestJudge.start({ config: { publicUrl, trustProxy: true } });
    const upstream = new URL(j.url);
    // the guide's block with this machine's names, ports and files put in
    const site = recipe()
      .replace('listen 443 ssl;', `listen 127.0.0.1:${port} ssl;`)
      .replace(/server_name \S+;/, 'server_name 127.0.0.1;')
      .replace(/ssl_certificate +\S+;/, `ssl_certificate ${cert};`)
      .replace(/ssl_certificate_key +\S+;/, `ssl_certificate_key ${key};`)
      .replace('proxy_pass http://127.0.0.1:8080;', `proxy_pass http://127.0.0.1:${upstream.port};`);
    mkdirSync(join(dir, 'logs'));
    const conf = join(dir, 'nginx.conf');
    writeFileSync(conf, `pid ${dir}/nginx.pid;\nerror_log ${dir}/logs/error.log;\nevents {}\nhttp {\n  access_log off;\n  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;\n  ${site}\n}\n`);
    nginx = spawn(NGINX!, ['-p', dir, '-c', conf, '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
    nginx.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    await until('nginx to answer', async () => {
      if (nginx!.exitCode !== null) throw new Error(`nginx exited: ${log}`);
      return (await https(`${publicUrl}/api/v1/health`, ca).catch(() => undefined))?.status === 200 ? true : undefined;
    }, 20_000, 50);
  });
  afterAll(async () => {
    nginx?.kill('SIGTERM');
    await j?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs in through the proxy with a Secure cookie, and the event socket opens over wss', async () => {
    const login = await https(`${publicUrl}/api/v1/identity/login?useCookies=true`, ca, { method: 'POST', body: { email: 'admin', password: ADMIN_PASSWORD } });
    expect(login.status, login.body).toBe(200);
    const set = (login.headers['set-cookie'] as string[]).find((c) => c.startsWith('judge_session='))!;
    expect(set).toMatch(/; secure/i);
    const cookie = set.split(';')[0]!;
    expect(login.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(JSON.parse((await https(`${publicUrl}/api/v1/account`, ca, { cookie })).body)).toMatchObject({ username: 'admin' });
    const ws = new WebSocket(`${publicUrl.replace(/^https/, 'wss')}/api/v1/ws`, { ca, headers: { cookie, origin: publicUrl } });
    const opened = await new Promise<number>((resolve, reject) => {
      ws.once('open', () => resolve(101));
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('error', reject);
    });
    ws.close();
    expect(opened, log).toBe(101);
  });
});
