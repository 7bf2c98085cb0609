import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { raw, TestJudge } from './harness.js';
import { sha256 } from './support/forms.js';
import { expectProblem, req, type RawResponse } from './support/identity.js';

// decisions §11: POST /files/fetch against a real web server on 127.0.0.1 (reachable only because
// the test setting files.fetchAllowLoopback is on; the last block proves it is refused without it)

const LIMIT = 64 * 1024;
const SMALL = 'hello from afar\n';
const NAMED = '%PDF-1.4 not really\n';

/** What the remote web server answers, by path. */
function remote(req: IncomingMessage, res: ServerResponse, port: number): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const p = url.pathname;
  const redirect = (to: string, status = 302): void => void res.writeHead(status, { location: to }).end();
  if (p === '/small.txt') return void res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(SMALL);
  if (p === '/named')
    return void res.writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="plain.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf` }).end(NAMED);
  if (p === '/') return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end('root');
  const hop = /^\/r\/(\d+)$/.exec(p);
  // /r/3 → /r/2 → /r/1 → /r/0 → /small.txt: relative, absolute, 301, 307 and 308 on the way
  if (hop) {
    const n = Number(hop[1]);
    if (n === 0) return redirect('/small.txt', 308);
    if (n === 1) return redirect(`http://localhost:${port}/r/0`, 307);
    return redirect(`/r/${n - 1}`, n === 2 ? 301 : 302);
  }
  const loop = /^\/loop\/(\d+)$/.exec(p);
  if (loop) return redirect(`/loop/${Number(loop[1]) + 1}`);
  if (p === '/to-private') return redirect('http://10.0.0.1/secret');
  if (p === '/to-unlisted') return redirect('http://unlisted.example/x');
  if (p === '/to-ftp') return redirect(`ftp://localhost:${port}/x`);
  if (p === '/to-other-port') return redirect('http://localhost:1/x');
  if (p === '/big-declared') return void res.writeHead(200, { 'content-length': String(LIMIT + 1) }).end(Buffer.alloc(LIMIT + 1, 97));
  if (p === '/big-streamed') {
    // chunked, no Content-Length: the limit is only found out while the body comes
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    let sent = 0;
    const more = () => {
      if (res.destroyed || sent > 4 * LIMIT) return void res.end();
      sent += 8192;
      res.write(Buffer.alloc(8192, 98), () => setImmediate(more));
    };
    return more();
  }
  if (p === '/slow') {
    // the headers and a first chunk at once, then nothing: only the time limit ends it
    res.writeHead(200, { 'content-type': 'text/plain' });
    return void res.write('a first chunk, and then silence');
  }
  if (p === '/missing') return void res.writeHead(404).end('no such file');
  res.writeHead(500).end();
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse, port: number) => void): Promise<{ server: Server; port: number }> {
  let port = 0;
  const server = createServer((q, s) => handler(q, s, port));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  return { server, port };
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
}

/** Files under files/.incoming: a refused fetch must leave none. */
const incoming = (j: TestJudge) => {
  const dir = join(j.dataDir, 'files', '.incoming');
  return existsSync(dir) ? readdirSync(dir) : [];
};

describe('POST /files/fetch', () => {
  let j: TestJudge;
  let site: { server: Server; port: number };
  let admin: string;
  let base: string;

  const fetchAs = (url: string, token: string | undefined = admin) => req(j, 'POST', '/files/fetch', { body: { url }, ...(token ? { token } : {}) });

  /** Runs a refused fetch and proves nothing was kept: no record, nothing left in files/.incoming. */
  async function refused(url: string, code: string, token = admin): Promise<RawResponse> {
    const rows = await j.count('files');
    const before = incoming(j);
    const r = await fetchAs(url, token);
    expectProblem(r, 422, code);
    expect(await j.count('files')).toBe(rows);
    expect(incoming(j).filter((f) => !before.includes(f)), 'a refused fetch left bytes in files/.incoming').toEqual([]);
    return r;
  }

  beforeAll(async () => {
    site = await listen(remote);
    base = `http://localhost:${site.port}`;
    j = await TestJudge.start({ config: { logLevel: 'info', limits: { uploadBytes: LIMIT, fetchSeconds: 2 }, files: { fetchAllowLoopback: true } } });
    admin = (await j.admin()).accessToken!;
  });
  afterAll(async () => {
    await j?.stop();
    await stop(site.server);
  });

  it('refuses everything while the external-content list is empty', async () => {
    const r = await refused(`${base}/small.txt`, 'fetch.host.notAllowed');
    expect(r.body.detail).toMatch(/fetching is off/);
  });

  it('stores a small file as an upload of the caller: 201, Location, FileMeta, the bytes downloadable', async () => {
    expect((await req(j, 'PUT', '/instance/external-content', { token: admin, body: { hosts: [`localhost:${site.port}`, '10.0.0.1'] } })).status).toBe(200);
    const rows = await j.count('files');
    const r = await fetchAs(`${base}/small.txt?token=s3cret-in-the-query`);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toEqual({ id: expect.any(String), name: 'small.txt', mimeType: 'text/plain', sizeBytes: SMALL.length, sha256: sha256(SMALL), createdAt: expect.any(String) });
    expect(r.headers.get('location')).toBe(`/api/v1/files/${r.body.id}/meta`);
    expect(await j.count('files')).toBe(rows + 1);
    const [row] = await j.query<{ uploaded_by: string }>('SELECT uploaded_by FROM files WHERE id = ?', r.body.id);
    const me = await req(j, 'GET', '/account', { token: admin });
    expect(row!.uploaded_by).toBe(me.body.userId);
    // stored content-addressed, as uploads are
    expect(readFileSync(join(j.dataDir, 'files', r.body.sha256.slice(0, 2), r.body.sha256.slice(2, 4), r.body.sha256), 'utf8')).toBe(SMALL);
    const got = await raw(`${j.url}/api/v1/files/${r.body.id}`, { token: admin });
    expect(got.status).toBe(200);
    expect(got.text).toBe(SMALL);
    expect((await req(j, 'GET', `/files/${r.body.id}/meta`, { token: admin })).body).toEqual(r.body);
    // the log names the host, never the query (it may hold a token)
    const log = join(j.dataDir, 'logs', 'judge.log');
    await expect.poll(() => (existsSync(log) ? readFileSync(log, 'utf8') : '')).toMatch(/file fetched/);
    const line = readFileSync(log, 'utf8').split('\n').find((l) => l.includes('file fetched'))!;
    expect(JSON.parse(line)).toMatchObject({ userId: me.body.userId, host: 'localhost', sizeBytes: SMALL.length, sha256: sha256(SMALL) });
    expect(readFileSync(log, 'utf8')).not.toMatch(/s3cret/);
  });

  it('names the file as Content-Disposition says, with its Content-Type', async () => {
    const r = await fetchAs(`${base}/named`);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ name: 'résumé.pdf', mimeType: 'application/pdf', sha256: sha256(NAMED) });
  });

  it('without a name in the answer or the path the file is called download', async () => {
    const r = await fetchAs(`${base}/`);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ name: 'download', mimeType: 'application/octet-stream', sizeBytes: 4 });
  });

  it('follows a chain of redirects (relative, absolute; 301, 302, 307, 308) to the file', async () => {
    const r = await fetchAs(`${base}/r/3`);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ name: 'small.txt', sha256: sha256(SMALL) });
  });

  it('more than 5 redirects: fetch.redirects', async () => {
    await refused(`${base}/loop/0`, 'fetch.redirects');
  });

  it('checks every redirect: a forbidden address, a host not on the list, another port, another scheme', async () => {
    const r = await refused(`${base}/to-private`, 'fetch.address.forbidden');
    expect(r.body.detail).toMatch(/10\.0\.0\.1.*private/);
    await refused(`${base}/to-unlisted`, 'fetch.host.notAllowed');
    await refused(`${base}/to-other-port`, 'fetch.host.notAllowed');
    await refused(`${base}/to-ftp`, 'fetch.scheme');
  });

  it('a Content-Length over the upload limit: fetch.tooLarge before the body is read', async () => {
    const r = await refused(`${base}/big-declared`, 'fetch.tooLarge');
    expect(r.body.detail).toContain(String(LIMIT));
  });

  it('a body that grows past the limit without a Content-Length: fetch.tooLarge, the partial file removed', async () => {
    await refused(`${base}/big-streamed`, 'fetch.tooLarge');
  });

  it('an answer slower than limits.fetchSeconds: fetch.timeout', async () => {
    const started = Date.now();
    const r = await refused(`${base}/slow`, 'fetch.timeout');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.body.detail).toMatch(/2 s/);
  });

  it('a 404 is fetch.failed naming the status; a closed port too', async () => {
    const r = await refused(`${base}/missing`, 'fetch.failed');
    expect(r.body.detail).toMatch(/404/);
    const closed = await listen(remote);
    await stop(closed.server);
    await req(j, 'PUT', '/instance/external-content', { token: admin, body: { hosts: [`localhost:${site.port}`, `localhost:${closed.port}`] } });
    const c = await refused(`http://localhost:${closed.port}/x`, 'fetch.failed');
    expect(c.body.detail).toMatch(/ECONNREFUSED|connect/i);
  });

  it('refuses other schemes, hosts not on the list, forbidden addresses and URLs that are none', async () => {
    await refused(`ftp://localhost:${site.port}/small.txt`, 'fetch.scheme');
    await refused('file:///etc/passwd', 'fetch.scheme');
    await refused(`http://unlisted.example:${site.port}/small.txt`, 'fetch.host.notAllowed');
    // on the list only without a port, so only port 80 is allowed
    await refused(`http://127.0.0.1:${site.port}/small.txt`, 'fetch.host.notAllowed');
    await req(j, 'PUT', '/instance/external-content', { token: admin, body: { hosts: [`localhost:${site.port}`, '10.0.0.1', '169.254.169.254'] } });
    await refused('http://169.254.169.254/latest/meta-data/', 'fetch.address.forbidden');
    await refused('http://10.0.0.1/', 'fetch.address.forbidden');
    expectProblem(await fetchAs('not a url'), 422, 'validation_failed');
    expectProblem(await fetchAs(`http://user:pw@localhost:${site.port}/small.txt`), 422, 'validation_failed');
    expectProblem(await req(j, 'POST', '/files/fetch', { token: admin, body: {} }), 422, 'validation_failed');
  });

  it('anonymous: 401; signed in without problem:import:external: 403; with it: stored as theirs', async () => {
    expectProblem(await fetchAs(`${base}/small.txt`, ''), 401, 'unauthenticated');
    const pupil = await j.signIn(await j.user('fetch-pupil'));
    const r = await fetchAs(`${base}/small.txt`, pupil.accessToken!);
    expectProblem(r, 403, 'forbidden');
    expect(r.body.detail).toMatch(/problem:import:external/);
    const adminClient = await j.admin();
    const role = await adminClient.call(ops.createRole, { body: { name: 'Importer', permissions: ['problem:import:external'] } });
    const importer = await j.user('fetch-importer');
    await adminClient.call(ops.createGrant, { body: { userId: importer.id, roleId: role.id } });
    const token = (await j.signIn(importer)).accessToken!;
    const ok = await fetchAs(`${base}/small.txt`, token);
    expect(ok.status, ok.text).toBe(201);
    expect((await req(j, 'GET', `/files/${ok.body.id}/meta`, { token })).status).toBe(200);
    expect((await req(j, 'GET', `/files/${ok.body.id}/meta`, { token: pupil.accessToken! })).status).toBe(404);
  });
});

describe('POST /files/fetch without the loopback test setting (as in production)', () => {
  let j: TestJudge;
  let site: { server: Server; port: number };
  let admin: string;
  let hits = 0;

  beforeAll(async () => {
    site = await listen((q, s, port) => {
      hits++;
      remote(q, s, port);
    });
    j = await TestJudge.start();
    admin = (await j.admin()).accessToken!;
    const set = await req(j, 'PUT', '/instance/external-content', { token: admin, body: { hosts: [`127.0.0.1:${site.port}`, `localhost:${site.port}`] } });
    expect(set.status).toBe(200);
  });
  afterAll(async () => {
    await j?.stop();
    await stop(site.server);
  });

  it('refuses loopback by address and by name, and never connects', async () => {
    const rows = await j.count('files');
    const byAddress = await req(j, 'POST', '/files/fetch', { token: admin, body: { url: `http://127.0.0.1:${site.port}/small.txt` } });
    expectProblem(byAddress, 422, 'fetch.address.forbidden');
    expect(byAddress.body.detail).toMatch(/loopback/);
    expectProblem(await req(j, 'POST', '/files/fetch', { token: admin, body: { url: `http://localhost:${site.port}/small.txt` } }), 422, 'fetch.address.forbidden');
    expect(hits).toBe(0);
    expect(await j.count('files')).toBe(rows);
    expect(incoming(j)).toEqual([]);
  });
});
