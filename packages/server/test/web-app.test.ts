import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@judge/server';
import { TestJudge } from './harness.js';
import { until } from './support/wait.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
}

/**
 * One request as written, with node:http rather than fetch: fetch normalises `..` out of a URL and
 * undoes gzip, and those are what these tests look at.
 */
function send(base: string, path: string, opts: { method?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method: opts.method ?? 'GET', headers: opts.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, headers: res.headers, body, text: body.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const INDEX = '<!doctype html><html lang="en"><head><title>Judge</title><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div></body></html>\n';
// large enough to be worth compressing, as a real bundle is
const APP_JS = `console.log("the app");\n${'export const filler = "' + 'x'.repeat(4000) + '";\n'}`;
const SECRET = 'TOP SECRET next to the app';

/** A built app as Vite leaves it, with a secret beside it and links that try to reach it. */
function fakeBuiltApp(): { root: string; dir: string } {
  const root = mkdtempSync(join(tmpdir(), 'judge-web-'));
  const dir = join(root, 'dist');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets', 'app-abc123.js'), APP_JS);
  writeFileSync(join(dir, 'assets', 'app-abc123.css'), 'body{margin:0}');
  writeFileSync(join(dir, 'assets', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const types: Record<string, string> = { 'icon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>', 'logo.png': 'png', 'f.woff2': 'w2', 'f.woff': 'w', 'f.ttf': 't', 'favicon.ico': 'ico', 'manifest.json': '{}', 'robots.txt': 'User-agent: *', 'app.js.map': '{}' };
  for (const [name, content] of Object.entries(types)) writeFileSync(join(dir, name), content);
  writeFileSync(join(root, 'secret.txt'), SECRET);
  symlinkSync(join(root, 'secret.txt'), join(dir, 'leak.txt'));
  symlinkSync(root, join(dir, 'outside'));
  return { root, dir };
}

const header = (r: Reply, name: string) => String(r.headers[name] ?? '');

describe('the web app at /', () => {
  let j: TestJudge;
  let app: { root: string; dir: string };
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => send(j.url, path, { headers, method });

  beforeAll(async () => {
    app = fakeBuiltApp();
    j = await TestJudge.start({ config: { web: { dir: app.dir } } });
  });
  afterAll(async () => {
    await j?.stop();
    rmSync(app.root, { recursive: true, force: true });
  });

  it('serves index.html at / under the strict policy, revalidated by ETag', async () => {
    const r = await get('/');
    expect(r.status).toBe(200);
    expect(r.text).toBe(INDEX);
    expect(header(r, 'content-type')).toBe('text/html; charset=utf-8');
    expect(header(r, 'cache-control')).toBe('no-cache');
    expect(header(r, 'etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(header(r, 'x-content-type-options')).toBe('nosniff');
    const csp = header(r, 'content-security-policy').split(/;\s*/);
    for (const d of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      "frame-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ])
      expect(csp).toContain(d);
    const u = new URL(j.url);
    expect(csp).toContain(`connect-src 'self' ws://${u.host} wss://${u.host}`);
  });

  it('answers a matching If-None-Match with 304 and no body, and a stale one with the file', async () => {
    const first = await get('/');
    const again = await get('/', { 'if-none-match': header(first, 'etag') });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(header(again, 'etag')).toBe(header(first, 'etag'));
    expect((await get('/', { 'if-none-match': '"something-else"' })).status).toBe(200);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const r = await get('/', {}, 'HEAD');
    expect(r.status).toBe(200);
    expect(r.body.length).toBe(0);
    expect(header(r, 'content-length')).toBe(String(Buffer.byteLength(INDEX)));
    expect(header(r, 'content-type')).toBe('text/html; charset=utf-8');
    expect(header(r, 'cache-control')).toBe('no-cache');
  });

  it('caches hashed assets for a year as immutable, and nothing else', async () => {
    const js = await get('/assets/app-abc123.js');
    expect(js.status).toBe(200);
    expect(js.text).toBe(APP_JS);
    expect(header(js, 'cache-control')).toBe('public, max-age=31536000, immutable');
    expect(header(js, 'content-type')).toBe('text/javascript; charset=utf-8');
    expect(header((await get('/assets/app-abc123.css')), 'cache-control')).toBe('public, max-age=31536000, immutable');
    for (const p of ['/favicon.ico', '/icon.svg', '/index.html', '/assets/logo.svg']) expect(header(await get(p), 'cache-control'), p).toBe('no-cache');
  });

  it('names each file type by its extension', async () => {
    const types: Record<string, string> = {
      '/assets/app-abc123.css': 'text/css; charset=utf-8',
      '/icon.svg': 'image/svg+xml',
      '/logo.png': 'image/png',
      '/f.woff2': 'font/woff2',
      '/f.woff': 'font/woff',
      '/f.ttf': 'font/ttf',
      '/favicon.ico': 'image/x-icon',
      '/manifest.json': 'application/json; charset=utf-8',
      '/robots.txt': 'text/plain; charset=utf-8',
      '/app.js.map': 'application/json; charset=utf-8',
    };
    for (const [path, type] of Object.entries(types)) {
      const r = await get(path);
      expect(r.status, path).toBe(200);
      expect(header(r, 'content-type'), path).toBe(type);
    }
  });

  it('gzips text to a client that accepts it, and sends the bytes as they are to one that does not', async () => {
    const z = await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(header(z, 'content-encoding')).toBe('gzip');
    expect(header(z, 'vary')).toMatch(/accept-encoding/i);
    expect(z.body.length).toBeLessThan(APP_JS.length / 4);
    expect(gunzipSync(z.body).toString('utf8')).toBe(APP_JS);
    const plain = await get('/assets/app-abc123.js');
    expect(header(plain, 'content-encoding')).toBe('');
    expect(plain.text).toBe(APP_JS);
    const refused = await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip;q=0, identity' });
    expect(header(refused, 'content-encoding')).toBe('');
    // each encoding has its own tag, and either one proves the client holds the file
    expect(header(z, 'etag')).not.toBe(header(plain, 'etag'));
    expect((await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip', 'if-none-match': header(z, 'etag') })).status).toBe(304);
    // images are compressed already
    expect(header(await get('/logo.png', { 'accept-encoding': 'gzip' }), 'content-encoding')).toBe('');
  });

  it('serves index.html for a deep link, so the app can route it', async () => {
    for (const p of ['/a/contest-1/problems/sum', '/account', '/a/contest-1/', '/assets']) {
      const r = await get(p);
      expect(r.status, p).toBe(200);
      expect(r.text, p).toBe(INDEX);
      expect(header(r, 'cache-control'), p).toBe('no-cache');
    }
  });

  it('answers a missing asset with 404, never the page', async () => {
    for (const p of ['/assets/app-old999.js', '/assets/nested/gone.css']) {
      const r = await get(p);
      expect(r.status, p).toBe(404);
      expect(r.text, p).not.toContain('<html');
    }
  });

  it('leaves everything under /api/ to the API: an unknown endpoint stays a JSON 404', async () => {
    for (const p of ['/api/v1/nope', '/api', '/api/', '/api/v1/', '/%61pi/v1/nope']) {
      const r = await get(p);
      expect(r.status, p).toBe(404);
      expect(header(r, 'content-type'), p).toBe('application/problem+json');
      expect(JSON.parse(r.text).code, p).toBe('not_found');
    }
    const health = await get('/api/v1/health');
    expect(health.status).toBe(200);
    expect(header(health, 'content-type')).toMatch(/^application\/json/);
  });

  it('serves nothing but GET and HEAD', async () => {
    for (const m of ['POST', 'PUT', 'DELETE']) {
      const r = await get('/', {}, m);
      expect(r.status, m).toBe(404);
      expect(r.text, m).not.toContain('<html');
    }
  });

  it('never serves a file from outside its directory', async () => {
    const attempts = [
      '/../secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e/secret.txt',
      '/%2e%2e%2fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/..%5csecret.txt',
      '/index.html%00.js',
      '/./index.html',
      '/%E0%A4%A',
    ];
    for (const p of attempts) {
      const r = await get(p);
      expect(r.status, p).toBe(404);
      expect(r.text, p).not.toContain(SECRET);
    }
    // a link out of the directory is not a file of the app: the path is a deep link like any other
    for (const p of ['/leak.txt', '/outside/secret.txt']) {
      const r = await get(p);
      expect(r.text, p).not.toContain(SECRET);
      expect(r.text, p).toBe(INDEX);
    }
  });

  it('serves a rebuilt app without a restart', async () => {
    const next = INDEX.replace('<title>Judge</title>', '<title>Judge, rebuilt</title>');
    const before = await get('/');
    writeFileSync(join(app.dir, 'index.html'), next);
    const r = await get('/', { 'if-none-match': header(before, 'etag') });
    expect(r.status).toBe(200);
    expect(r.text).toBe(next);
    expect(header(r, 'etag')).not.toBe(header(before, 'etag'));
  });
});

describe('a judge whose web app is not built', () => {
  let j: TestJudge;
  let root: string;
  let dir: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'judge-web-'));
    dir = join(root, 'dist');
    j = await TestJudge.start({ config: { web: { dir } } });
  });
  afterAll(async () => {
    await j?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('answers / and deep links with a page saying how to build it, under the API strict policy', async () => {
    for (const p of ['/', '/a/contest-1/problems/sum']) {
      const r = await send(j.url, p);
      expect(r.status, p).toBe(503);
      expect(header(r, 'content-type'), p).toBe('text/html; charset=utf-8');
      expect(r.text, p).toContain('pnpm build');
      expect(header(r, 'content-security-policy'), p).toBe("default-src 'none'; frame-ancestors 'none'");
    }
    expect((await send(j.url, '/api/v1/health')).status).toBe(200);
  });

  it('says so once in the log at start', async () => {
    const log = join(j.dataDir, 'logs', 'judge.log');
    const warnings = await until('the warning in the log', () => {
      const lines = (existsSync(log) ? readFileSync(log, 'utf8') : '').split('\n').filter((l) => l.includes('the web app is not built'));
      return lines.length > 0 ? lines : undefined;
    });
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, dir });
  });

  it('serves the app once it is built, without a restart', async () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'index.html'), INDEX);
    const r = await send(j.url, '/');
    expect(r.status).toBe(200);
    expect(r.text).toBe(INDEX);
  });
});

describe('the web.dir setting', () => {
  it("defaults to the checkout's packages/web/dist and follows JUDGE_WEB_DIR, relative to the installation folder unless absolute", () => {
    const d = mkdtempSync(join(tmpdir(), 'judge-web-config-'));
    try {
      const byDefault = loadConfig(d, {}, {}).web.dir;
      expect(isAbsolute(byDefault)).toBe(true);
      expect(byDefault).toMatch(/\/packages\/web\/dist$/);
      expect(loadConfig(d, {}, { JUDGE_WEB_DIR: '/srv/judge-web' }).web.dir).toBe('/srv/judge-web');
      expect(loadConfig(d, {}, { JUDGE_WEB_DIR: 'elsewhere/dist' }).web.dir).toBe(join(byDefault, '..', '..', '..', 'elsewhere', 'dist'));
      expect(() => loadConfig(d, {}, { JUDGE_WEB_DIR: '' })).toThrow(/web\.dir/);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });
});

describe('files the app embeds', () => {
  let j: TestJudge;
  beforeAll(async () => {
    j = await TestJudge.start();
  });
  afterAll(async () => {
    await j?.stop();
  });

  it('shows a PDF inline, framed by this origin only, and keeps every other file an attachment in a sandbox', async () => {
    const alice = await j.signIn(await j.user('alice'));
    const token = alice.accessToken!;
    const pdf = await alice.upload('statement.pdf', '%PDF-1.4\n%%EOF\n', 'application/pdf');
    const r = await send(j.url, `/api/v1/files/${pdf.id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(r.status).toBe(200);
    expect(header(r, 'content-type')).toBe('application/pdf');
    expect(header(r, 'content-disposition')).toMatch(/^inline; filename="statement.pdf"/);
    expect(header(r, 'content-security-policy')).toBe("default-src 'none'; frame-ancestors 'self'");
    expect(header(r, 'x-content-type-options')).toBe('nosniff');
    const html = await alice.upload('page.html', '<script>alert(1)</script>', 'text/html');
    const h = await send(j.url, `/api/v1/files/${html.id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(header(h, 'content-disposition')).toMatch(/^attachment;/);
    expect(header(h, 'content-security-policy')).toBe("default-src 'none'; frame-ancestors 'self'; sandbox");
  });
});
