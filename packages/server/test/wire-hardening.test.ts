import { execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, rmSync, writeSync, closeSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createHash } from 'node:crypto';
import { MAX_JSON_DEPTH, ops, Props, type Activity } from '@judge/contract';
import { initDataDir, loadConfig, startApp, type JudgeApp } from '@judge/server';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ManualClock, TestJudge, TEST_CONFIG } from './harness.js';
import { refusedWith, sendJson } from './expect.js';
import { World, type Party } from './series-fixtures.js';

/** `[[[...]]]` nested `depth` deep (`[]` is 1 deep), as text: the server parses it, not the test. */
const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

const activity = (extra: Record<string, unknown> = {}) => ({
  slug: `act-${Math.random().toString(36).slice(2, 10)}`,
  name: 'An activity',
  type: 'contest@1',
  rankingType: 'icpc',
  timeZone: 'Europe/Warsaw',
  ...extra,
});

/** A createActivity body whose props member holds arrays nested so that the whole body is `depth` deep. */
const bodyOfDepth = (depth: number) => {
  const a = activity();
  // the body object is 1 deep and props 2: its member x holds the rest
  return `${JSON.stringify(a).slice(0, -1)},"props":{"x":${nestedArrays(depth - 2)}}}`;
};

describe('wire hardening', () => {
  let j: TestJudge;
  let token: string;
  beforeAll(async () => {
    j = await TestJudge.start();
    token = (await j.admin()).accessToken!;
  });
  afterAll(() => j?.stop());

  describe('JSON nesting', () => {
    it(`takes a body nested ${MAX_JSON_DEPTH} deep and refuses ${MAX_JSON_DEPTH + 1} with 422 json.tooDeep`, async () => {
      const ok = await sendJson(j.url, 'POST', '/activities', token, bodyOfDepth(MAX_JSON_DEPTH));
      expect(ok.status, ok.text).toBe(201);
      const deep = await sendJson(j.url, 'POST', '/activities', token, bodyOfDepth(MAX_JSON_DEPTH + 1));
      expect(deep.status, deep.text).toBe(422);
      expect(deep.body.code).toBe('json.tooDeep');
    });

    it('refuses 20,000 levels of free-form props (once a 500 from a stack overflow) and stores nothing', async () => {
      const body = activity();
      const text = `${JSON.stringify(body).slice(0, -1)},"props":{"x":${nestedArrays(20_000)}}}`;
      const res = await sendJson(j.url, 'POST', '/activities', token, text);
      expect(res.status, res.text).toBe(422);
      expect(res.body.code).toBe('json.tooDeep');
      // nothing was created: the slug is still free
      const again = await sendJson(j.url, 'POST', '/activities', token, body);
      expect(again.status, again.text).toBe(201);
    });

    it('refuses a bare array 20,000 deep on any JSON route, before validation', async () => {
      const res = await sendJson(j.url, 'POST', '/identity/login', undefined, nestedArrays(20_000));
      expect(res.status, res.text).toBe(422);
      expect(res.body.code).toBe('json.tooDeep');
    });

    it('the contract refuses a free-form member nested too deep without overflowing the stack', () => {
      let v: unknown = 1;
      for (let i = 0; i < 20_000; i++) v = [v];
      const r = Props.safeParse({ x: v });
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.message).toMatch(/nest at most 64 deep/);
      let ok: unknown = 1;
      for (let i = 0; i < MAX_JSON_DEPTH - 1; i++) ok = [ok];
      expect(Props.safeParse({ x: ok }).success).toBe(true);
    });
  });

  describe('timestamps', () => {
    it.each([
      ['9999-12-31T23:30:00-05:00', 'past year 9999 once in UTC'],
      ['0000-01-01T00:30:00+01:00', 'before year 0000 once in UTC'],
      ['+010000-01-01T00:00:00Z', 'a six-digit year'],
    ])('refuses %s (%s) with 422 validation_failed naming the member', async (value) => {
      const res = await sendJson(j.url, 'POST', '/activities', token, activity({ startDate: value }));
      expect(res.status, res.text).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(Object.keys(res.body.errors)).toEqual(['startDate']);
    });

    it('takes the last and the first representable instants and writes them back as RFC 3339', async () => {
      const res = await sendJson(j.url, 'POST', '/activities', token, activity({ startDate: '0000-01-01T00:00:00Z', endDate: '9999-12-31T18:59:59.999-05:00' }));
      expect(res.status, res.text).toBe(201);
      expect(res.body.startDate).toBe('0000-01-01T00:00:00.000Z');
      expect(res.body.endDate).toBe('9999-12-31T23:59:59.999Z');
    });

    it('refuses such an instant in every operation that takes one, e.g. a user expiry', async () => {
      const admin = await j.admin();
      const u = await admin.call(ops.createUser, { body: { username: 'expiring' } });
      const res = await sendJson(j.url, 'PUT', `/users/${u.userId}`, token, { expiresAt: '9999-12-31T23:59:59-00:01' });
      expect(res.status, res.text).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['expiresAt']);
    });
  });
});

/** Mounts a small tmpfs, or says why it cannot. */
function mountTmpfs(dir: string, size: string): string | undefined {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
    return undefined;
  } catch (e) {
    return String((e as { stderr?: Buffer }).stderr ?? e).trim() || 'mount failed';
  }
}

/** Writes zeros until the file system refuses with ENOSPC. */
function fillDisk(path: string): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (e) {
    if ((e as { code?: string }).code !== 'ENOSPC') throw e;
    // the last partial block
    const small = Buffer.alloc(512);
    try {
      for (;;) writeSync(fd, small);
    } catch {
      // full to the byte
    }
  } finally {
    closeSync(fd);
  }
}

describe('a full disk', () => {
  const lines: Record<string, unknown>[] = [];
  let mountPoint: string;
  /** Why the disk cannot be filled here, if it cannot. */
  let why: string | undefined;
  let app: JudgeApp;
  let token: string;

  // mounted in a hook, not while the tests are collected: hooks do not run when a filter skips them all
  beforeAll(async () => {
    mountPoint = mkdtempSync(join(tmpdir(), 'judge-full-'));
    why = mountTmpfs(mountPoint, '6m');
    if (why) {
      console.log(`skipping the full-disk test: cannot mount a tmpfs at ${mountPoint} (${why})`);
      return;
    }
    const config = loadConfig(mountPoint, { ...TEST_CONFIG }, {});
    await initDataDir(mountPoint, config, async () => ADMIN_PASSWORD);
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
        done();
      },
    });
    app = await startApp({ dataDir: mountPoint, config, logger: pino({ level: 'warn' }, sink) });
    const login = await sendJson(app.url, 'POST', '/identity/login', undefined, { email: 'admin', password: ADMIN_PASSWORD });
    token = login.body.accessToken;
  });
  afterAll(async () => {
    if (!why) {
      await app?.close();
      execFileSync('umount', [mountPoint]);
    }
    rmSync(mountPoint, { recursive: true, force: true });
  });

  const upload = (bytes: Buffer) => {
    const form = new FormData();
    form.set('sha256', createHash('sha256').update(bytes).digest('hex'));
    form.set('file', new Blob([bytes]), 'big.bin');
    return fetch(`${app.url}/api/v1/files`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  };

  it('answers 507 storage.full to uploads and database writes, logs it once, and works again once space is freed', async (ctx) => {
    if (why) return ctx.skip(why);
    const filler = join(mountPoint, 'filler');
    fillDisk(filler);
    const bytes = Buffer.alloc(256 * 1024, 7);
    const refusals = [];
    for (let i = 0; i < 3; i++) {
      const res = await upload(bytes);
      expect(res.status, await res.clone().text()).toBe(507);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      refusals.push(await res.json());
    }
    expect(refusals[0]).toMatchObject({ status: 507, code: 'storage.full', title: 'Insufficient Storage', traceId: expect.any(String) });
    // nothing half-written stays behind
    expect(readdirSync(join(mountPoint, 'files', '.incoming'))).toEqual([]);

    // the database: props large enough that its write-ahead log must grow
    let dbRefusal: { status: number; body: { code?: string } } | undefined;
    for (let i = 0; i < 40 && !dbRefusal; i++) {
      const res = await sendJson(app.url, 'POST', '/activities', token, activity({ props: { pad: 'x'.repeat(200 * 1024 + i) } }));
      if (res.status !== 201) dbRefusal = res;
    }
    expect(dbRefusal?.status).toBe(507);
    expect(dbRefusal?.body.code).toBe('storage.full');

    const full = lines.filter((l) => /storage full/.test(String(l.msg)));
    expect(full).toHaveLength(1);
    expect(full[0]).toMatchObject({ level: 50, code: 'ENOSPC' });
    expect(lines.filter((l) => l.msg === 'request failed')).toEqual([]);

    rmSync(filler);
    const stored = await upload(bytes);
    expect(stored.status, await stored.clone().text()).toBe(201);
    const created = await sendJson(app.url, 'POST', '/activities', token, activity({ props: { pad: 'y'.repeat(1000) } }));
    expect(created.status, created.text).toBe(201);
  });
});

describe('free-form JSON in a multipart form', () => {
  let j: TestJudge;
  let w: World;
  let alice: Party;
  let act: Activity;
  let taskSlug: string;
  beforeAll(async () => {
    const clock = new ManualClock(new Date('2026-11-22T08:00:00.000Z'));
    j = await TestJudge.start({ clock });
    w = await World.create(j, clock);
    act = await w.activity({ joinPolicy: 'open', unlisted: false });
    const series = await w.admin.call(ops.createSeries, { params: { idOrSlug: act.slug }, body: { slug: 'open', name: 'Open' } });
    const { problem } = await w.problem(w.admin, { package: true });
    taskSlug = w.uniq('task');
    await w.admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug: taskSlug } });
    alice = await w.party('alice');
    await alice.c.call(ops.enrol, { params: { idOrSlug: act.slug }, body: {} });
  });
  afterAll(() => j?.stop());

  it('refuses submission props nested deeper than 64 with 422 naming props, and stores nothing', async () => {
    const code = 'print(1)\n';
    const form = new FormData();
    form.set('code', code);
    form.set('fileName', 'a.py');
    form.set('sha256', createHash('sha256').update(code).digest('hex'));
    form.set('props', `{"x":${nestedArrays(20_000)}}`);
    const e = await refusedWith(alice.c.call(ops.submit, { params: { idOrSlug: act.slug, problemSlug: taskSlug }, form }), 422, 'validation_failed');
    expect(Object.keys(e.errors ?? {})).toEqual(['props']);
    expect((await j.query('SELECT count(*) AS n FROM submissions'))[0]).toEqual({ n: 0 });
    expect(readdirSync(join(j.dataDir, 'files', '.incoming'))).toEqual([]);
  });
});
