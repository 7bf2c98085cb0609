import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ConfigError, loadConfig, startApp } from '@judge/server';
import { ADMIN_PASSWORD, TestJudge } from './harness.js';
import { https } from './support/https-request.js';

/**
 * Built-in HTTPS (settings tls.certFile and tls.keyFile): a self-signed certificate for 127.0.0.1
 * made here with Debian's openssl; real HTTPS requests and a real WSS handshake that trust only it.
 */

function selfSigned(dir: string, name: string, cn = '127.0.0.1'): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', `/CN=${cn}`, '-addext', `subjectAltName=IP:${cn}`, '-keyout', key, '-out', cert], { stdio: 'ignore' });
  return { cert, key };
}

describe('built-in HTTPS', () => {
  const certs = mkdtempSync(join(tmpdir(), 'judge-tls-'));
  const pair = selfSigned(certs, 'judge');
  const ca = readFileSync(pair.cert);
  let j: TestJudge;
  beforeAll(async () => {
    j = await TestJudge.start({ config: { tls: { certFile: pair.cert, keyFile: pair.key } } });
  });
  afterAll(async () => {
    await j.stop();
    rmSync(certs, { recursive: true, force: true });
  });

  it('answers HTTPS with the certificate, and says so in its URL and with HSTS', async () => {
    expect(j.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const r = await https(`${j.url}/api/v1/health`, ca);
    expect(r.status).toBe(200);
    expect(r.headers['strict-transport-security']).toBe('max-age=31536000');
    // a client that does not trust the certificate is refused by TLS itself
    await expect(https(`${j.url}/api/v1/health`, Buffer.from(''))).rejects.toThrow();
  });

  it('sets the session cookie Secure, and it opens the event socket over WSS', async () => {
    const login = await https(`${j.url}/api/v1/identity/login?useCookies=true`, ca, { method: 'POST', body: { email: 'admin', password: ADMIN_PASSWORD } });
    expect(login.status, login.body).toBe(200);
    const set = (login.headers['set-cookie'] as string[]).find((c) => c.startsWith('judge_session='))!;
    expect(set).toMatch(/; secure/i);
    expect(set).toMatch(/; httponly/i);
    const cookie = set.split(';')[0]!;
    expect(JSON.parse((await https(`${j.url}/api/v1/account`, ca, { cookie })).body)).toMatchObject({ username: 'admin' });
    const ws = new WebSocket(`${j.url.replace(/^https/, 'wss')}/api/v1/ws`, { ca, headers: { cookie, origin: j.url } });
    const opened = await new Promise<number>((resolve, reject) => {
      ws.once('open', () => resolve(101));
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('error', reject);
    });
    ws.close();
    expect(opened).toBe(101);
  });

  it('the local runner reaches it over plain HTTP on 127.0.0.1 alone', async () => {
    expect(j.app.localUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(j.app.localUrl).not.toBe(j.url.replace(/^https/, 'http'));
    expect((await fetch(`${j.app.localUrl}/api/v1/health`)).status).toBe(200);
  });
});

describe('HTTPS settings that cannot work are refused at start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'judge-tls-bad-'));
  const one = selfSigned(dir, 'one');
  const other = selfSigned(dir, 'other');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const start = (tls: { certFile: string; keyFile: string }) => startApp({ dataDir: join(dir, 'data'), config: loadConfig(join(dir, 'data'), { port: 0, logLevel: 'silent', tls }, {}) });

  it('a certificate without its key, a missing file, and a key that is not the certificate’s', async () => {
    await expect(start({ certFile: one.cert, keyFile: '' })).rejects.toThrow(new ConfigError('tls: give both tls.certFile and tls.keyFile (--tls-cert and --tls-key), or neither'));
    await expect(start({ certFile: join(dir, 'missing.crt'), keyFile: one.key })).rejects.toThrow(/^tls\.certFile: cannot read .*missing\.crt: ENOENT$/);
    const mismatch = start({ certFile: one.cert, keyFile: other.key });
    await expect(mismatch).rejects.toBeInstanceOf(ConfigError);
    await expect(mismatch).rejects.toThrow(/are not a certificate and its private key/);
  });

  it('relative files in judge.json are the data directory’s', () => {
    expect(loadConfig(join(dir, 'data'), { tls: { certFile: 'tls/judge.crt', keyFile: '/etc/k.pem' } }, {}).tls).toEqual({ certFile: join(dir, 'data', 'tls', 'judge.crt'), keyFile: '/etc/k.pem' });
  });
});
