import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { raw, TestJudge } from './harness.js';
import { sha256 } from './support/forms.js';

type RawResponse = Awaited<ReturnType<typeof raw>>;

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const bytesOf = (s: string) => new TextEncoder().encode(s);

/** A multipart body as a browser builds it; a part left undefined is not sent. */
function form(parts: { file?: Uint8Array | string; name?: string; type?: string; sha256?: string }): FormData {
  const f = new FormData();
  if (parts.sha256 !== undefined) f.set('sha256', parts.sha256);
  if (parts.file !== undefined) {
    const data = typeof parts.file === 'string' ? bytesOf(parts.file) : parts.file;
    f.set('file', new Blob([new Uint8Array(data)], { type: parts.type ?? 'application/octet-stream' }), parts.name ?? 'data.bin');
  }
  return f;
}

function expectProblem(r: RawResponse, status: number, code: string): void {
  expect(r.status, r.text).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.body).toMatchObject({ status, code, title: expect.any(String), detail: expect.any(String) });
}

/** The bytes `pattern` repeated to `size` bytes. */
function filled(size: number, pattern = 'abcdefghij'): Uint8Array {
  const out = new Uint8Array(size);
  const p = bytesOf(pattern);
  for (let i = 0; i < size; i++) out[i] = p[i % p.length]!;
  return out;
}

/** Every file under a directory, relative to it, skipping none (dot folders included). */
function walk(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...walk(join(dir, e.name), rel));
    else out.push(rel);
  }
  return out;
}

function harness(j: TestJudge) {
  const api = (path: string) => `${j.url}/api/v1${path}`;
  const filesDir = join(j.dataDir, 'files');
  const incomingDir = join(filesDir, '.incoming');
  /** Stored blobs, i.e. everything under files/ but the incoming folder. */
  const blobs = () => walk(filesDir).filter((p) => !p.startsWith('.incoming/'));
  const incoming = () => (existsSync(incomingDir) ? readdirSync(incomingDir) : []);
  return {
    api,
    filesDir,
    incomingDir,
    blobPath: (sha: string) => join(filesDir, sha.slice(0, 2), sha.slice(2, 4), sha),
    blobs,
    incoming,
    /** Runs a refused request and proves it stored nothing: no record, no blob, no incoming leftover. */
    async refusedLeavesNothing(run: () => Promise<RawResponse>): Promise<RawResponse> {
      const records = (await j.count('files'));
      const blobsBefore = blobs().sort();
      const incomingBefore = incoming().sort();
      const r = await run();
      expect((await j.count('files'))).toBe(records);
      expect(blobs().sort()).toEqual(blobsBefore);
      expect(
        incoming().filter((n) => !incomingBefore.includes(n)),
        'a refused upload left bytes in files/.incoming',
      ).toEqual([]);
      return r;
    },
    post: (body: NonNullable<RequestInit['body']>, token?: string, headers: Record<string, string> = {}) =>
      raw(api('/files'), { method: 'POST', body, headers, ...(token ? { token } : {}) }),
  };
}

describe('files', () => {
  let j: TestJudge;
  let h: ReturnType<typeof harness>;
  let admin: JudgeClient;
  let alice: JudgeClient;
  let bob: JudgeClient;
  let aliceToken: string;

  beforeAll(async () => {
    j = await TestJudge.start();
    h = harness(j);
    admin = await j.admin();
    alice = await j.signIn(await j.user('alice'));
    bob = await j.signIn(await j.user('bob'));
    aliceToken = alice.accessToken!;
  });
  afterAll(() => j.stop());

  describe('upload', () => {
    it('answers 201 with Location and the FileMeta, and stores the blob under files/ab/cd/<sha256>', async () => {
      const content = 'hello, judge\n';
      const sha = sha256(content);
      const before = (await j.count('files'));
      const r = await h.post(form({ file: content, name: 'hello.txt', type: 'text/plain', sha256: sha }), aliceToken);
      expect(r.status, r.text).toBe(201);
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      const meta = r.body;
      expect(Object.keys(meta).sort()).toEqual(['createdAt', 'id', 'mimeType', 'name', 'sha256', 'sizeBytes']);
      expect(meta).toEqual({ id: expect.stringMatching(UUID_V7), name: 'hello.txt', mimeType: 'text/plain', sizeBytes: bytesOf(content).length, sha256: sha, createdAt: expect.stringMatching(INSTANT) });
      expect(Math.abs(Date.parse(meta.createdAt) - Date.now())).toBeLessThan(60_000);
      expect((await j.count('files'))).toBe(before + 1);

      // Location names the new record and answers
      const location = r.headers.get('location');
      expect(location).toMatch(new RegExp(`^(https?://[^/]+)?/api/v1/files/${meta.id}(/meta)?$`));
      const followed = await raw(new URL(location!, j.url).toString(), { token: aliceToken });
      expect(followed.status).toBe(200);

      // the bytes are on disk under their hash, and nothing is left in the incoming folder
      const onDisk = h.blobPath(sha);
      expect(existsSync(onDisk)).toBe(true);
      expect(readFileSync(onDisk, 'utf8')).toBe(content);
      expect(h.incoming()).toEqual([]);
    });

    it('uploads through the SDK the same way', async () => {
      const meta = await alice.upload('sdk.bin', filled(300), 'application/x-thing');
      expect(meta).toMatchObject({ name: 'sdk.bin', mimeType: 'application/x-thing', sizeBytes: 300, sha256: sha256(filled(300)) });
      expect(await alice.call(ops.getFileMeta, { params: { id: meta.id } })).toEqual(meta);
    });

    it('keeps two records but one blob for the same bytes uploaded twice', async () => {
      const content = `twice ${randomUUID()}`;
      const sha = sha256(content);
      const records = (await j.count('files'));
      const first = await h.post(form({ file: content, name: 'one.txt', sha256: sha }), aliceToken);
      const second = await h.post(form({ file: content, name: 'two.txt', sha256: sha }), bob.accessToken!);
      expect(first.status, first.text).toBe(201);
      expect(second.status, second.text).toBe(201);
      expect(first.body.id).not.toBe(second.body.id);
      expect(first.body.sha256).toBe(sha);
      expect(second.body.sha256).toBe(sha);
      expect(second.body.name).toBe('two.txt');
      expect((await j.count('files'))).toBe(records + 2);
      expect(h.blobs().filter((p) => p.endsWith(sha))).toEqual([`${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}`]);
      expect(h.incoming()).toEqual([]);
      // each record is its uploader's; the shared blob does not make one readable by the other
      expect((await raw(h.api(`/files/${second.body.id}/meta`), { token: aliceToken })).status).toBe(404);
      expect((await raw(h.api(`/files/${second.body.id}`), { token: bob.accessToken! })).text).toBe(content);
    });

    it('accepts an empty file and serves it back empty', async () => {
      const empty = sha256('');
      const r = await h.post(form({ file: new Uint8Array(0), name: 'empty.txt', sha256: empty }), aliceToken);
      expect(r.status, r.text).toBe(201);
      expect(r.body).toMatchObject({ name: 'empty.txt', sizeBytes: 0, sha256: empty });
      expect(existsSync(h.blobPath(empty))).toBe(true);
      const got = await raw(h.api(`/files/${r.body.id}`), { token: aliceToken });
      expect(got.status).toBe(200);
      expect(got.text).toBe('');
      expect(got.headers.get('etag')).toBe(`"${empty}"`);
    });

    it('accepts a declared sha256 in upper case and stores it in lower case', async () => {
      const content = 'upper case digest';
      const sha = sha256(content);
      const r = await h.post(form({ file: content, sha256: sha.toUpperCase() }), aliceToken);
      expect(r.status, r.text).toBe(201);
      expect(r.body.sha256).toBe(sha);
    });
  });

  describe('refused uploads store nothing', () => {
    it('a wrong sha256 is 422 checksum_mismatch', async () => {
      const content = `mismatch ${randomUUID()}`;
      const r = await h.refusedLeavesNothing(() => h.post(form({ file: content, sha256: sha256('something else') }), aliceToken));
      expectProblem(r, 422, 'checksum_mismatch');
      expect(existsSync(h.blobPath(sha256(content)))).toBe(false);
    });

    it('a missing sha256 part is 422 validation_failed', async () => {
      const r = await h.refusedLeavesNothing(() => h.post(form({ file: 'no digest' }), aliceToken));
      expectProblem(r, 422, 'validation_failed');
      expect(r.body.errors).toHaveProperty('sha256');
    });

    it.each([
      ['too short', 'abc123'],
      ['not hex', 'z'.repeat(64)],
      ['too long', 'a'.repeat(65)],
      ['empty', ''],
    ])('a sha256 that is not 64 hex digits (%s) is 422 validation_failed', async (_what, declared) => {
      const r = await h.refusedLeavesNothing(() => h.post(form({ file: 'bad digest', sha256: declared }), aliceToken));
      expectProblem(r, 422, 'validation_failed');
      expect(r.body.errors).toHaveProperty('sha256');
    });

    it('no file part is 422 file.required', async () => {
      const r = await h.refusedLeavesNothing(() => h.post(form({ sha256: sha256('x') }), aliceToken));
      expectProblem(r, 422, 'file.required');
      expect(r.body.errors).toHaveProperty('file');
      // a text part named file is not a file either
      const f = form({ sha256: sha256('x') });
      f.set('file', 'x');
      expectProblem(await h.refusedLeavesNothing(() => h.post(f, aliceToken)), 422, 'file.required');
    });

    it('JSON instead of multipart is 415', async () => {
      const r = await h.refusedLeavesNothing(() =>
        h.post(JSON.stringify({ file: 'aGVsbG8=', sha256: sha256('hello') }), aliceToken, { 'content-type': 'application/json' }),
      );
      expectProblem(r, 415, 'unsupported_media_type');
    });

    it('a malformed multipart body is 400 request.malformed', async () => {
      // multipart without a boundary
      const noBoundary = await h.refusedLeavesNothing(() => h.post('--x\r\n\r\n', aliceToken, { 'content-type': 'multipart/form-data' }));
      expectProblem(noBoundary, 400, 'request.malformed');
      // a body that ends inside the file part, after formidable began writing it to disk
      const b = 'cut-short-boundary';
      const truncated = `--${b}\r\nContent-Disposition: form-data; name="sha256"\r\n\r\n${sha256('x')}\r\n--${b}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\nContent-Type: application/octet-stream\r\n\r\nsome bytes and then noth`;
      const cut = await h.refusedLeavesNothing(() => h.post(truncated, aliceToken, { 'content-type': `multipart/form-data; boundary=${b}` }));
      expectProblem(cut, 400, 'request.malformed');
    });

    it('an anonymous upload is 401', async () => {
      const content = 'anonymous';
      const r = await h.refusedLeavesNothing(() => h.post(form({ file: content, sha256: sha256(content) })));
      expectProblem(r, 401, 'unauthenticated');
      const bad = await h.refusedLeavesNothing(() => h.post(form({ file: content, sha256: sha256(content) }), 'x'.repeat(43)));
      expectProblem(bad, 401, 'unauthenticated');
    });
  });

  describe('download', () => {
    const content = '0123456789';
    const sha = sha256(content);
    let id: string;
    const get = (headers: Record<string, string> = {}, as?: string) => raw(h.api(`/files/${id}`), { headers, token: as ?? aliceToken });

    beforeAll(async () => {
      const r = await h.post(form({ file: content, name: 'digits.txt', type: 'text/plain', sha256: sha }), aliceToken);
      expect(r.status, r.text).toBe(201);
      id = r.body.id;
    });

    it('sends the bytes with ETag, a naming Content-Disposition and headers that keep a browser from running them', async () => {
      const r = await get();
      expect(r.status).toBe(200);
      expect(r.text).toBe(content);
      expect(r.headers.get('content-length')).toBe(String(content.length));
      expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(r.headers.get('etag')).toBe(`"${sha}"`);
      expect(r.headers.get('content-disposition')).toMatch(/^attachment;/);
      expect(r.headers.get('content-disposition')).toContain('filename="digits.txt"');
      expect(r.headers.get('content-security-policy')).toMatch(/\bsandbox\b/);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('accept-ranges')).toBe('bytes');
    });

    it('returns the exact bytes of a binary file', async () => {
      const bin = new Uint8Array(4096);
      for (let i = 0; i < bin.length; i++) bin[i] = (i * 7 + 3) & 0xff;
      const meta = await alice.upload('blob.bin', bin);
      const res = await fetch(h.api(`/files/${meta.id}`), { headers: { authorization: `Bearer ${aliceToken}` } });
      expect(res.status).toBe(200);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(bin);
    });

    it('answers If-None-Match with the ETag with 304 and no body', async () => {
      const r = await get({ 'if-none-match': `"${sha}"` });
      expect(r.status).toBe(304);
      expect(r.text).toBe('');
      expect(r.headers.get('etag')).toBe(`"${sha}"`);
      // one of several tags, too
      expect((await get({ 'if-none-match': `"${'0'.repeat(64)}", "${sha}"` })).status).toBe(304);
      // a different tag gets the content
      const other = await get({ 'if-none-match': `"${'0'.repeat(64)}"` });
      expect(other.status).toBe(200);
      expect(other.text).toBe(content);
    });

    it('answers Range bytes=2-5 with 206, Content-Range and the slice', async () => {
      const r = await get({ range: 'bytes=2-5' });
      expect(r.status).toBe(206);
      expect(r.text).toBe('2345');
      expect(r.headers.get('content-range')).toBe(`bytes 2-5/${content.length}`);
      expect(r.headers.get('content-length')).toBe('4');
      expect(r.headers.get('etag')).toBe(`"${sha}"`);
    });

    it('answers a suffix range bytes=-3 with the last three bytes', async () => {
      const r = await get({ range: 'bytes=-3' });
      expect(r.status).toBe(206);
      expect(r.text).toBe('789');
      expect(r.headers.get('content-range')).toBe(`bytes 7-9/${content.length}`);
    });

    it('answers an open range bytes=6- with the rest, and clamps an end past the file', async () => {
      const open = await get({ range: 'bytes=6-' });
      expect(open.status).toBe(206);
      expect(open.text).toBe('6789');
      expect(open.headers.get('content-range')).toBe(`bytes 6-9/${content.length}`);
      const past = await get({ range: 'bytes=8-100' });
      expect(past.status).toBe(206);
      expect(past.text).toBe('89');
      expect(past.headers.get('content-range')).toBe(`bytes 8-9/${content.length}`);
    });

    it('answers a range past the end with 416 and Content-Range bytes */size', async () => {
      const r = await get({ range: 'bytes=100-200' });
      expect(r.status).toBe(416);
      expect(r.headers.get('content-range')).toBe(`bytes */${content.length}`);
      expect(r.text).not.toContain(content);
    });

    it('names a file whose name is not plain ASCII in both filename forms', async () => {
      const name = 'résumé "v2".txt';
      const meta = await alice.upload(name, 'cv');
      expect(meta.name).toBe(name);
      const r = await raw(h.api(`/files/${meta.id}`), { token: aliceToken });
      expect(r.status).toBe(200);
      const cd = r.headers.get('content-disposition') ?? '';
      const star = /filename\*=UTF-8''([^;]+)/.exec(cd);
      expect(star, cd).not.toBeNull();
      expect(decodeURIComponent(star![1]!)).toBe(name);
      const plain = /filename="((?:[^"\\]|\\.)*)"/.exec(cd);
      expect(plain, cd).not.toBeNull();
      expect(plain![1]).toMatch(/^[\x20-\x7e]*$/);
    });

    it('GET /files/{id}/meta returns the same record as the upload', async () => {
      const up = await h.post(form({ file: 'meta me', name: 'm.txt', type: 'text/plain', sha256: sha256('meta me') }), aliceToken);
      expect(up.status).toBe(201);
      const r = await raw(h.api(`/files/${up.body.id}/meta`), { token: aliceToken });
      expect(r.status).toBe(200);
      expect(r.body).toEqual(up.body);
    });
  });

  describe('who may read', () => {
    let id: string;
    const content = 'alice only';
    beforeAll(async () => {
      id = (await alice.upload('private.txt', content)).id;
    });

    it('another plain user gets 404 for content and meta, the same answer as for a missing id', async () => {
      const missing = await raw(h.api(`/files/${randomUUID()}`), { token: bob.accessToken! });
      const missingMeta = await raw(h.api(`/files/${randomUUID()}/meta`), { token: bob.accessToken! });
      const hidden = await raw(h.api(`/files/${id}`), { token: bob.accessToken! });
      const hiddenMeta = await raw(h.api(`/files/${id}/meta`), { token: bob.accessToken! });
      for (const r of [missing, missingMeta, hidden, hiddenMeta]) expectProblem(r, 404, 'not_found');
      expect(hidden.body).toEqual(missing.body);
      expect(hiddenMeta.body).toEqual(missingMeta.body);
      expect(hidden.text).not.toContain(content);
      expect(hidden.headers.get('etag')).toBeNull();
      expect(hidden.headers.get('content-disposition')).toBeNull();
      // not even a conditional or ranged request tells the two apart
      const cond = await raw(h.api(`/files/${id}`), { token: bob.accessToken!, headers: { 'if-none-match': `"${sha256(content)}"`, range: 'bytes=0-1' } });
      expectProblem(cond, 404, 'not_found');
    });

    it('the administrator can read it', async () => {
      const r = await raw(h.api(`/files/${id}`), { token: admin.accessToken! });
      expect(r.status).toBe(200);
      expect(r.text).toBe(content);
      const meta = await raw(h.api(`/files/${id}/meta`), { token: admin.accessToken! });
      expect(meta.status).toBe(200);
      expect(meta.body).toMatchObject({ id, name: 'private.txt', sha256: sha256(content) });
    });

    it('an anonymous caller gets 401', async () => {
      expectProblem(await raw(h.api(`/files/${id}`)), 401, 'unauthenticated');
      expectProblem(await raw(h.api(`/files/${id}/meta`)), 401, 'unauthenticated');
    });

    it('a non-UUID id and an unknown UUID are 404', async () => {
      for (const path of ['/files/not-a-uuid', '/files/not-a-uuid/meta', '/files/12345', `/files/${randomUUID()}`, `/files/${randomUUID()}/meta`]) {
        expectProblem(await raw(h.api(path), { token: admin.accessToken! }), 404, 'not_found');
      }
    });
  });

  describe('retention', () => {
    it('removes upload leftovers older than an hour from files/.incoming and keeps fresh ones', async () => {
      const stale = join(h.incomingDir, `stale-${randomUUID()}`);
      const fresh = join(h.incomingDir, `fresh-${randomUUID()}`);
      writeFileSync(stale, 'half an upload');
      writeFileSync(fresh, 'an upload in progress');
      const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
      utimesSync(stale, twoHoursAgo, twoHoursAgo);
      const blobs = h.blobs().sort();
      const records = (await j.count('files'));

      const result = await j.app.retention.tick(new Date());
      expect(result.uploads).toBe(1);
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(fresh)).toBe(true);
      // stored blobs and records are not leftovers
      expect(h.blobs().sort()).toEqual(blobs);
      expect((await j.count('files'))).toBe(records);

      // an hour on, the fresh one is stale too
      const later = await j.app.retention.tick(new Date(Date.now() + 2 * 3_600_000));
      expect(later.uploads).toBe(1);
      expect(existsSync(fresh)).toBe(false);
    });
  });
});

describe('files with a small upload limit', () => {
  const LIMIT = 1024;
  let j: TestJudge;
  let h: ReturnType<typeof harness>;
  let token: string;

  beforeAll(async () => {
    j = await TestJudge.start({ config: { limits: { uploadBytes: LIMIT } } });
    h = harness(j);
    token = (await j.signIn(await j.user('carol'))).accessToken!;
  });
  afterAll(() => j.stop());

  it('accepts a file of exactly the limit', async () => {
    const bytes = filled(LIMIT);
    const r = await h.post(form({ file: bytes, sha256: sha256(bytes) }), token);
    expect(r.status, r.text).toBe(201);
    expect(r.body.sizeBytes).toBe(LIMIT);
  });

  it('refuses one byte over the limit with 413 payload_too_large (honest Content-Length, parsed)', async () => {
    const bytes = filled(LIMIT + 1);
    const r = await h.refusedLeavesNothing(() => h.post(form({ file: bytes, sha256: sha256(bytes) }), token));
    expectProblem(r, 413, 'payload_too_large');
  });

  it('refuses a body far over the limit with 413 payload_too_large (honest Content-Length, refused before reading)', async () => {
    const bytes = filled(200 * 1024);
    const r = await h.refusedLeavesNothing(() => h.post(form({ file: bytes, sha256: sha256(bytes) }), token));
    expectProblem(r, 413, 'payload_too_large');
  });

  it('refuses a chunked body over the limit with 413 payload_too_large', async () => {
    const boundary = `----judge${randomUUID().replace(/-/g, '')}`;
    const data = filled(16 * 1024);
    const head = bytesOf(
      `--${boundary}\r\nContent-Disposition: form-data; name="sha256"\r\n\r\n${sha256(data)}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const tail = bytesOf(`\r\n--${boundary}--\r\n`);
    const chunks = [head, ...Array.from({ length: 16 }, (_, i) => data.subarray(i * 1024, (i + 1) * 1024)), tail];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const r = await h.refusedLeavesNothing(async () => {
      const res = await fetch(h.api('/files'), {
        method: 'POST',
        body,
        duplex: 'half',
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      } as RequestInit);
      const text = await res.text();
      return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
    });
    expectProblem(r, 413, 'payload_too_large');
  });

  it('still accepts a small upload afterwards', async () => {
    const r = await h.post(form({ file: 'small', sha256: sha256('small') }), token);
    expect(r.status, r.text).toBe(201);
  });
});
