import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Problem } from '@judge/contract';
import type { ApiProblem, JudgeClient } from '@judge/sdk';
import { refusedWith, sendJson } from './expect.js';
import { ManualClock, TestJudge, type TestUser } from './harness.js';
import { legacyPackage, zipOf } from './zips.js';

/**
 * The problem library over real HTTP and a real SQLite file: create, read, list, rename, archive,
 * share, duplicate and delete; who may do each (a plain user, the owner, a user it is shared with,
 * instance visibility, a reader of every problem through a custom role, the administrator); the
 * problemChanged events and their audience; and that every refusal leaves the tables as they were.
 * Versions and packages have their own file (packages.test.ts).
 */

const UNKNOWN_UUID = '0190f5d2-6c3a-7b4e-8f00-000000000000';

let seq = 0;
const uniq = (prefix: string) => `${prefix}${++seq}`;

describe('problems', () => {
  let j: TestJudge;
  const clock = new ManualClock();
  let admin: JudgeClient;
  /** Holds the built-in manager role system-wide: every problem key but delete and read:all. */
  let author: { u: TestUser; c: JudgeClient };
  let colleague: { u: TestUser; c: JudgeClient };
  /** No grants at all. */
  let plain: { u: TestUser; c: JudgeClient };
  /** A custom role with problem:read:all only. */
  let librarian: { u: TestUser; c: JudgeClient };
  /** A custom role with problem:read:all and problem:update. */
  let editor: { u: TestUser; c: JudgeClient };
  /** A custom role with problem:read:own, problem:create, problem:update and problem:delete. */
  let remover: { u: TestUser; c: JudgeClient };

  const snapshot = () =>
    JSON.stringify(
      ['problems', 'problem_shares', 'problem_versions', 'problem_version_files', 'files', 'series_problems'].map((t) =>
        j.app.deps.sqlite.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all(),
      ),
    );

  /** The call must fail with this status and code and change no problem, share, version or file. */
  async function refused(call: Promise<unknown>, status: number, code: string): Promise<ApiProblem> {
    const before = snapshot();
    const e = await refusedWith(call, status, code);
    expect(snapshot()).toBe(before);
    return e;
  }

  async function account(prefix: string, role?: string, extra: { firstName?: string; lastName?: string } = {}) {
    const u = await j.user(uniq(prefix), extra);
    if (role) await j.grant(u.id, role);
    return { u, c: await j.signIn(u) };
  }

  async function cookieAccount(prefix: string, role?: string) {
    const u = await j.user(uniq(prefix));
    if (role) await j.grant(u.id, role);
    const c = await j.signIn(u, 'cookie');
    return { u, c };
  }

  const create = (c: JudgeClient, body: { slug?: string; name?: string; type?: string; external?: boolean } = {}) =>
    c.call(ops.createProblem, { body: { slug: body.slug ?? uniq('prob-'), name: body.name ?? 'A problem', type: body.type ?? 'standard-io@1', ...(body.external !== undefined ? { external: body.external } : {}) } });
  const get = (c: JudgeClient, id: string) => c.call(ops.getProblem, { params: { id } });
  const list = (c: JudgeClient, query: { page?: number; pageSize?: number; search?: string; mineOnly?: 'true' | 'false'; includeArchived?: 'true' | 'false' }) =>
    c.call(ops.listProblems, { query: query as never });
  const share = (c: JudgeClient, id: string, visibility: 'private' | 'shared' | 'instance', sharedWith?: string[]) =>
    c.call(ops.setProblemVisibility, { params: { id }, body: { visibility, ...(sharedWith ? { sharedWith } : {}) } });
  const statementVersion = async (c: JudgeClient, problemId: string, text = '# Statement') => {
    const f = await c.upload('statement.md', text, 'text/markdown');
    return c.call(ops.createProblemVersion, { params: { problemId }, body: { statements: [{ fileId: f.id }] } });
  };
  const send = (method: string, path: string, c: JudgeClient, body?: unknown) => sendJson(j.url, method, path, c.accessToken, body);

  beforeAll(async () => {
    j = await TestJudge.start({ clock });
    admin = await j.admin();
    await admin.call(ops.createRole, { body: { name: 'Librarian', permissions: ['problem:read:all'] } });
    await admin.call(ops.createRole, { body: { name: 'Problem editor', permissions: ['problem:read:all', 'problem:update'] } });
    await admin.call(ops.createRole, { body: { name: 'Remover', permissions: ['problem:read:own', 'problem:create', 'problem:update', 'problem:delete'] } });
    author = await account('author', 'manager', { firstName: 'Ada', lastName: 'Lovelace' });
    colleague = await account('colleague', 'manager');
    plain = await account('plain');
    librarian = await account('librarian', 'Librarian');
    editor = await account('editor', 'Problem editor');
    remover = await account('remover', 'Remover');
  });
  afterAll(() => j.stop());

  // ---------------------------------------------------------------- POST /problems

  describe('POST /problems', () => {
    it('creates a private problem owned by the caller: 201, Location and the full view', async () => {
      clock.advance(60);
      const slug = uniq('Create-');
      const res = await send('POST', '/problems', author.c, { slug, name: '  Sum of two  ', type: 'standard-io@1' });
      expect(res.status).toBe(201);
      const p = res.body as Problem;
      expect(res.headers.get('location')).toBe(`/api/v1/problems/${p.id}`);
      expect(p).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/),
        slug,
        name: 'Sum of two',
        type: 'standard-io@1',
        external: false,
        ownerUserId: author.u.id,
        ownerName: 'Ada Lovelace',
        visibility: 'private',
        sharedWith: [],
        currentVersion: 0,
        versionCount: 0,
        attachedCount: 0,
        createdAt: clock.now().toISOString(),
      });
      expect(await get(author.c, p.id)).toEqual(p);
    });

    it('names the owner by login when the account has no first or last name, and stores external', async () => {
      const p = await create(colleague.c, { external: true });
      expect(p.ownerName).toBe(colleague.u.username);
      expect(p.external).toBe(true);
    });

    it('refuses a slug that is taken, whatever its case (409 problem.slug.taken)', async () => {
      const slug = uniq('Taken-');
      await create(author.c, { slug });
      const e = await refused(create(colleague.c, { slug: slug.toUpperCase() }), 409, 'problem.slug.taken');
      expect(e.detail).toContain(slug.toUpperCase());
      await refused(create(author.c, { slug: slug.toLowerCase() }), 409, 'problem.slug.taken');
    });

    it('needs problem:create: a plain user and a reader of all problems are refused, anonymous is 401', async () => {
      const e = await refused(create(plain.c), 403, 'forbidden');
      expect(e.detail).toContain('problem:create');
      await refused(create(librarian.c), 403, 'forbidden');
      await refused(j.anonymous().call(ops.createProblem, { body: { slug: 'anon', name: 'x', type: 'standard-io@1' } }), 401, 'unauthenticated');
    });

    it('refuses malformed bodies with 4xx problem+json and stores nothing', async () => {
      const cases: [unknown, string][] = [
        [{ name: 'x', type: 'standard-io@1' }, 'slug'],
        [{ slug: 'ok-slug', type: 'standard-io@1' }, 'name'],
        [{ slug: 'ok-slug', name: 'x' }, 'type'],
        [{ slug: 'has space', name: 'x', type: 'standard-io@1' }, 'slug'],
        [{ slug: '-leading', name: 'x', type: 'standard-io@1' }, 'slug'],
        [{ slug: 'a'.repeat(65), name: 'x', type: 'standard-io@1' }, 'slug'],
        [{ slug: 'ok-slug', name: '   ', type: 'standard-io@1' }, 'name'],
        [{ slug: 'ok-slug', name: 'x'.repeat(201), type: 'standard-io@1' }, 'name'],
        [{ slug: 'ok-slug', name: 'x', type: 'standard-io' }, 'type'],
        [{ slug: 'ok-slug', name: 'x', type: 'Standard-IO@1' }, 'type'],
        [{ slug: 42, name: 'x', type: 'standard-io@1' }, 'slug'],
        [{ slug: 'ok-slug', name: 'x', type: 'standard-io@1', external: 'yes' }, 'external'],
      ];
      for (const [body, field] of cases) {
        const before = snapshot();
        const res = await send('POST', '/problems', author.c, body);
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body.code).toBe('validation_failed');
        expect(Object.keys(res.body.errors)).toContain(field);
        expect(snapshot()).toBe(before);
      }
      const before = snapshot();
      expect((await send('POST', '/problems', author.c, '{"slug": ')).status).toBe(400);
      expect((await send('POST', '/problems', author.c, '[1, 2]')).status).toBe(422);
      expect(snapshot()).toBe(before);
    });
  });

  // ---------------------------------------------------------------- GET /problems/{id}

  describe('GET /problems/{id}', () => {
    it('answers the owner, the administrator and a reader of all problems; 404 to everyone else', async () => {
      const p = await create(author.c);
      for (const c of [author.c, admin, librarian.c, editor.c]) expect((await get(c, p.id)).id).toBe(p.id);
      for (const c of [plain.c, colleague.c, remover.c]) await refused(get(c, p.id), 404, 'not_found');
    });

    it('answers 404 for an unknown id and for one that is not a UUID', async () => {
      await refused(get(admin, UNKNOWN_UUID), 404, 'not_found');
      const res = await send('GET', '/problems/not-a-uuid', admin);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    });
  });

  // ---------------------------------------------------------------- GET /problems

  describe('GET /problems', () => {
    it('lists newest first with total and paging, pageSize clamped to 1..200', async () => {
      const tag = uniq('page-');
      const made: Problem[] = [];
      for (let i = 0; i < 5; i++) {
        clock.advance(1);
        made.push(await create(author.c, { slug: `${tag}-${i}` }));
      }
      const newestFirst = made.map((p) => p.id).reverse();
      const all = await list(author.c, { search: tag });
      expect(all).toMatchObject({ total: 5, page: 1, pageSize: 20 });
      expect(all.items.map((p) => p.id)).toEqual(newestFirst);
      expect(all.items[0]).toEqual(made[4]);
      const second = await list(author.c, { search: tag, page: 2, pageSize: 2 });
      expect(second).toMatchObject({ total: 5, page: 2, pageSize: 2 });
      expect(second.items.map((p) => p.id)).toEqual(newestFirst.slice(2, 4));
      expect(await list(author.c, { search: tag, pageSize: 0 })).toMatchObject({ pageSize: 1, items: [{ id: newestFirst[0] }] });
      expect((await list(author.c, { search: tag, pageSize: 500 })).pageSize).toBe(200);
      expect(await list(author.c, { search: tag, page: 9 })).toMatchObject({ total: 5, items: [] });
    });

    it('searches slug and name without regard to case, taking % and _ literally', async () => {
      const tag = uniq('srch');
      const bySlug = await create(author.c, { slug: `${tag}-Alpha`, name: 'First' });
      const byName = await create(author.c, { slug: uniq('other-'), name: `The ${tag.toUpperCase()} problem` });
      const percent = await create(author.c, { slug: uniq('pct-'), name: `${tag} 100% sure` });
      const found = await list(author.c, { search: tag.toUpperCase() });
      expect(found.items.map((p) => p.id).sort()).toEqual([bySlug.id, byName.id, percent.id].sort());
      expect((await list(author.c, { search: `${tag}-alpha` })).items.map((p) => p.id)).toEqual([bySlug.id]);
      expect((await list(author.c, { search: '100%' })).items.map((p) => p.id)).toEqual([percent.id]);
      expect((await list(author.c, { search: `${tag}_` })).total).toBe(0);
    });

    it('shows each caller what they may read: own, shared with them, instance-wide, or all with problem:read:all', async () => {
      const tag = uniq('read-');
      const mine = await create(colleague.c, { slug: `${tag}-mine` });
      const hidden = await create(author.c, { slug: `${tag}-private` });
      const shared = await create(author.c, { slug: `${tag}-shared` });
      await share(author.c, shared.id, 'shared', [colleague.u.id]);
      const everyone = await create(author.c, { slug: `${tag}-instance` });
      await share(author.c, everyone.id, 'instance');
      const ids = async (c: JudgeClient, q: Parameters<typeof list>[1] = {}) => (await list(c, { search: tag, ...q })).items.map((p) => p.id).sort();

      expect(await ids(colleague.c)).toEqual([mine.id, shared.id, everyone.id].sort());
      expect(await ids(colleague.c, { mineOnly: 'true' })).toEqual([mine.id]);
      expect(await ids(author.c)).toEqual([hidden.id, shared.id, everyone.id].sort());
      const all = [mine.id, hidden.id, shared.id, everyone.id].sort();
      expect(await ids(librarian.c)).toEqual(all);
      expect(await ids(admin)).toEqual(all);
      expect(await ids(admin, { mineOnly: 'true' })).toEqual([]);
      // a holder of problem:read:own with nothing of their own sees only what is instance-wide
      expect(await ids(remover.c)).toEqual([everyone.id]);
      expect((await list(colleague.c, { search: tag })).total).toBe(3);
    });

    it('hides archived problems unless includeArchived', async () => {
      const tag = uniq('arch-list-');
      const live = await create(author.c, { slug: `${tag}-live` });
      const old = await create(author.c, { slug: `${tag}-old` });
      await author.c.call(ops.setProblemArchived, { params: { id: old.id }, body: { archived: true } });
      expect((await list(author.c, { search: tag })).items.map((p) => p.id)).toEqual([live.id]);
      const both = await list(author.c, { search: tag, includeArchived: 'true' });
      expect(both.items.map((p) => p.id).sort()).toEqual([live.id, old.id].sort());
      expect(both.items.find((p) => p.id === old.id)!.archivedAt).toBe(clock.now().toISOString());
    });

    it('needs problem:read:own or problem:read:all: a plain user gets 403, anonymous 401', async () => {
      const e = await refused(list(plain.c, {}), 403, 'forbidden');
      expect(e.detail).toContain('problem:read:own');
      await refused(j.anonymous().call(ops.listProblems, { query: {} }), 401, 'unauthenticated');
    });

    it('refuses malformed query parameters with 422', async () => {
      for (const q of ['mineOnly=maybe', 'includeArchived=yes', 'page=abc', 'pageSize=1.5', `search=${'x'.repeat(201)}`]) {
        const res = await send('GET', `/problems?${q}`, author.c);
        expect(res.status, q).toBe(422);
        expect(res.body.code).toBe('validation_failed');
      }
    });
  });

  // ---------------------------------------------------------------- PUT /problems/{id}

  describe('PUT /problems/{id}', () => {
    const put = (c: JudgeClient, id: string, body: { slug: string; name: string; type: string }) => c.call(ops.updateProblem, { params: { id }, body });

    it('renames and changes the slug; the owner and a reader of all with problem:update may', async () => {
      const p = await create(author.c, { slug: uniq('ren-') });
      const renamed = await put(author.c, p.id, { slug: uniq('renamed-'), name: 'New name', type: p.type });
      expect(renamed).toEqual({ ...p, slug: renamed.slug, name: 'New name' });
      expect(await get(author.c, p.id)).toEqual(renamed);
      // its own slug in another case is not "taken"
      const upper = await put(editor.c, p.id, { slug: renamed.slug.toUpperCase(), name: 'Edited', type: p.type });
      expect(upper).toMatchObject({ slug: renamed.slug.toUpperCase(), name: 'Edited', ownerUserId: author.u.id });
    });

    it('refuses a type change (422 problem.type.immutable) and a taken slug (409)', async () => {
      const p = await create(author.c);
      const other = await create(colleague.c);
      const e = await refused(put(author.c, p.id, { slug: p.slug, name: p.name, type: 'output-only@1' }), 422, 'problem.type.immutable');
      expect(e.detail).toContain('standard-io@1');
      await refused(put(author.c, p.id, { slug: other.slug.toUpperCase(), name: p.name, type: p.type }), 409, 'problem.slug.taken');
    });

    it('who may: 404 to those who cannot read it, 403 to readers without write access or problem:update', async () => {
      const p = await create(author.c);
      const body = { slug: p.slug, name: 'Nope', type: p.type };
      await refused(put(plain.c, p.id, body), 404, 'not_found');
      await refused(put(colleague.c, p.id, body), 404, 'not_found');
      await share(author.c, p.id, 'instance');
      const e = await refused(put(colleague.c, p.id, body), 403, 'forbidden');
      expect(e.detail).toContain('problem:update');
      await refused(put(librarian.c, p.id, body), 403, 'forbidden');
      await share(author.c, p.id, 'shared', [colleague.u.id]);
      expect((await put(colleague.c, p.id, { ...body, name: 'By a colleague' })).name).toBe('By a colleague');
      await refused(put(author.c, UNKNOWN_UUID, body), 404, 'not_found');
    });

    it('refuses malformed bodies (type is required, slug must be a slug) changing nothing', async () => {
      const p = await create(author.c);
      for (const body of [{ slug: p.slug, name: 'x' }, { slug: 'bad slug', name: 'x', type: p.type }, { slug: p.slug, name: 5, type: p.type }, {}]) {
        const before = snapshot();
        const res = await send('PUT', `/problems/${p.id}`, author.c, body);
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body.code).toBe('validation_failed');
        expect(snapshot()).toBe(before);
      }
    });
  });

  // ---------------------------------------------------------------- POST /problems/{id}/archived

  describe('POST /problems/{id}/archived', () => {
    const archive = (c: JudgeClient, id: string, archived: boolean) => c.call(ops.setProblemArchived, { params: { id }, body: { archived } });

    it('sets archivedAt once, keeps it on a repeat, clears it on restore; the problem stays readable', async () => {
      const p = await create(author.c);
      clock.advance(30);
      const at = clock.now().toISOString();
      expect((await archive(author.c, p.id, true)).archivedAt).toBe(at);
      clock.advance(30);
      expect((await archive(author.c, p.id, true)).archivedAt).toBe(at);
      expect((await get(author.c, p.id)).archivedAt).toBe(at);
      const restored = await archive(author.c, p.id, false);
      expect(restored.archivedAt).toBeUndefined();
      expect(restored).toEqual({ ...p });
    });

    it('archived problems take no new versions (409 problem.archived) until restored', async () => {
      const p = await create(author.c);
      await archive(author.c, p.id, true);
      const f = await author.c.upload('statement.md', '# x', 'text/markdown');
      await refused(author.c.call(ops.createProblemVersion, { params: { problemId: p.id }, body: { statements: [{ fileId: f.id }] } }), 409, 'problem.archived');
      await archive(author.c, p.id, false);
      expect((await author.c.call(ops.createProblemVersion, { params: { problemId: p.id }, body: { statements: [{ fileId: f.id }] } })).version).toBe(1);
    });

    it('who may: 404 unreadable, 403 read-only (instance, librarian), a shared writer may', async () => {
      const p = await create(author.c);
      await refused(archive(plain.c, p.id, true), 404, 'not_found');
      await refused(archive(colleague.c, p.id, true), 404, 'not_found');
      await share(author.c, p.id, 'instance');
      const e = await refused(archive(colleague.c, p.id, true), 403, 'forbidden');
      expect(e.detail).toContain('problem:archive');
      await refused(archive(librarian.c, p.id, true), 403, 'forbidden');
      await share(author.c, p.id, 'shared', [colleague.u.id]);
      expect((await archive(colleague.c, p.id, true)).archivedAt).toBeDefined();
      expect((await archive(admin, p.id, false)).archivedAt).toBeUndefined();
    });

    it('refuses a body without a boolean archived (422)', async () => {
      const p = await create(author.c);
      for (const body of [{}, { archived: 'true' }, { archived: 1 }]) {
        const before = snapshot();
        const res = await send('POST', `/problems/${p.id}/archived`, author.c, body);
        expect(res.status).toBe(422);
        expect(snapshot()).toBe(before);
      }
    });
  });

  // ---------------------------------------------------------------- POST /problems/{id}/visibility

  describe('POST /problems/{id}/visibility', () => {
    it('shares with named users, who may then read and edit it; private again takes that back', async () => {
      const p = await create(author.c);
      const s = await share(author.c, p.id, 'shared', [colleague.u.id, colleague.u.id, editor.u.id]);
      expect(s.visibility).toBe('shared');
      expect(s.sharedWith).toEqual([colleague.u.id, editor.u.id].sort());
      expect((await get(colleague.c, p.id)).sharedWith).toEqual(s.sharedWith);
      // sharing lends reading only to holders of problem:read:own: a plain user still sees nothing
      await share(author.c, p.id, 'shared', [plain.u.id]);
      await refused(get(plain.c, p.id), 404, 'not_found');
      await refused(get(colleague.c, p.id), 404, 'not_found');
      // a user it is shared with may change the share list (write access with problem:share)
      await share(author.c, p.id, 'shared', [colleague.u.id]);
      expect((await share(colleague.c, p.id, 'shared', [colleague.u.id, remover.u.id])).sharedWith).toEqual([colleague.u.id, remover.u.id].sort());
      const back = await share(author.c, p.id, 'private');
      expect(back).toMatchObject({ visibility: 'private', sharedWith: [] });
      await refused(get(colleague.c, p.id), 404, 'not_found');
      expect(j.app.deps.sqlite.prepare('SELECT count(*) AS n FROM problem_shares WHERE problem_id = ?').get(p.id)).toEqual({ n: 0 });
    });

    it('instance visibility lends reading to every holder of problem:read:own, not writing; the list is dropped', async () => {
      const p = await create(author.c);
      const s = await share(author.c, p.id, 'instance', [colleague.u.id]);
      expect(s).toMatchObject({ visibility: 'instance', sharedWith: [] });
      expect((await get(colleague.c, p.id)).id).toBe(p.id);
      expect((await get(remover.c, p.id)).id).toBe(p.id);
      await refused(get(plain.c, p.id), 404, 'not_found');
      const e = await refused(share(colleague.c, p.id, 'private'), 403, 'forbidden');
      expect(e.detail).toContain('problem:share');
    });

    it('refuses unknown user ids (422 validation_failed naming them), changing nothing', async () => {
      const p = await create(author.c);
      await share(author.c, p.id, 'shared', [colleague.u.id]);
      const e = await refused(share(author.c, p.id, 'shared', [colleague.u.id, UNKNOWN_UUID, 'nobody']), 422, 'validation_failed');
      expect(e.detail).toContain(UNKNOWN_UUID);
      expect(e.detail).toContain('nobody');
      expect(e.errors?.sharedWith).toHaveLength(2);
      expect((await get(author.c, p.id)).sharedWith).toEqual([colleague.u.id]);
    });

    it('who may: 404 unreadable, 403 for a reader of all without problem:share; admin may', async () => {
      const p = await create(author.c);
      await refused(share(plain.c, p.id, 'instance'), 404, 'not_found');
      await refused(share(colleague.c, p.id, 'instance'), 404, 'not_found');
      await refused(share(librarian.c, p.id, 'instance'), 403, 'forbidden');
      await refused(share(editor.c, p.id, 'instance'), 403, 'forbidden');
      expect((await share(admin, p.id, 'instance')).visibility).toBe('instance');
    });

    it('refuses malformed bodies: unknown visibility, wrong types (422)', async () => {
      const p = await create(author.c);
      for (const body of [{ visibility: 'public' }, {}, { visibility: 'shared', sharedWith: 'all' }, { visibility: 'shared', sharedWith: [1] }]) {
        const before = snapshot();
        const res = await send('POST', `/problems/${p.id}/visibility`, author.c, body);
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body.code).toBe('validation_failed');
        expect(snapshot()).toBe(before);
      }
    });
  });

  // ---------------------------------------------------------------- DELETE /problems/{id}

  describe('DELETE /problems/{id}', () => {
    /** A series of a fresh activity using the problem, written directly: the series API is another area's. */
    function attach(problemId: string): string {
      const activityId = j.insertActivity(uniq('act-'));
      const seriesId = crypto.randomUUID();
      const now = clock.now().toISOString();
      j.app.deps.sqlite
        .prepare('INSERT INTO series (id, activity_id, slug, slug_key, name, "order", created_at) VALUES (?, ?, ?, ?, ?, 1, ?)')
        .run(seriesId, activityId, 's1', 's1', 'Series 1', now);
      const id = crypto.randomUUID();
      j.app.deps.sqlite
        .prepare('INSERT INTO series_problems (id, series_id, activity_id, problem_id, slug, slug_key, "order", created_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?)')
        .run(id, seriesId, activityId, problemId, 'a', 'a', now);
      return id;
    }
    const del = (c: JudgeClient, id: string) => c.call(ops.deleteProblem, { params: { id } });

    it('deletes with its versions, files rows and shares; the uploaded files stay', async () => {
      const p = await create(remover.c);
      await statementVersion(remover.c, p.id);
      await statementVersion(remover.c, p.id, '# v2');
      await share(admin, p.id, 'shared', [colleague.u.id]);
      const files = j.count('files');
      const res = await send('DELETE', `/problems/${p.id}`, remover.c);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      await refused(get(admin, p.id), 404, 'not_found');
      const left = (t: string, col: string) => (j.app.deps.sqlite.prepare(`SELECT count(*) AS n FROM ${t} WHERE ${col} = ?`).get(p.id) as { n: number }).n;
      expect(left('problem_versions', 'problem_id')).toBe(0);
      expect(left('problem_shares', 'problem_id')).toBe(0);
      expect(j.count('problem_version_files')).toBe(
        (j.app.deps.sqlite.prepare('SELECT count(*) AS n FROM problem_version_files f JOIN problem_versions v ON v.id = f.version_id').get() as { n: number }).n,
      );
      expect(j.count('files')).toBe(files);
      // the slug is free again
      expect((await create(remover.c, { slug: p.slug })).slug).toBe(p.slug);
    });

    it('refuses while an assignment uses it (409 problem.attached), which attachedCount shows', async () => {
      const p = await create(remover.c);
      const assignment = attach(p.id);
      expect((await get(remover.c, p.id)).attachedCount).toBe(1);
      const e = await refused(del(remover.c, p.id), 409, 'problem.attached');
      expect(e.detail).toContain('1 assignment');
      j.app.deps.sqlite.prepare('DELETE FROM series_problems WHERE id = ?').run(assignment);
      await del(remover.c, p.id);
    });

    it('who may: problem:delete plus write access; 404 for those who cannot read it', async () => {
      const p = await create(author.c);
      const e = await refused(del(author.c, p.id), 403, 'forbidden');
      expect(e.detail).toContain('problem:delete');
      await refused(del(plain.c, p.id), 404, 'not_found');
      await refused(del(remover.c, p.id), 404, 'not_found');
      await share(author.c, p.id, 'instance');
      await refused(del(remover.c, p.id), 403, 'forbidden');
      await refused(del(librarian.c, p.id), 403, 'forbidden');
      await share(author.c, p.id, 'shared', [remover.u.id]);
      await del(remover.c, p.id);
      const q = await create(author.c);
      await del(admin, q.id);
      await refused(del(admin, q.id), 404, 'not_found');
      expect((await send('DELETE', '/problems/not-a-uuid', admin)).status).toBe(404);
    });
  });

  // ---------------------------------------------------------------- POST /problems/{id}/duplicate

  describe('POST /problems/{id}/duplicate', () => {
    const dup = (c: JudgeClient, id: string) => c.call(ops.duplicateProblem, { params: { id } });

    it('copies under <slug>-2, -3 with the newest version only, as a private problem of the caller sharing the bytes', async () => {
      const slug = uniq('orig-');
      const p = await create(author.c, { slug, name: 'Original' });
      await statementVersion(author.c, p.id, '# old');
      const pkg = await author.c.upload('package.zip', await zipOf(legacyPackage()), 'application/zip');
      const extra = await author.c.upload('notes.txt', 'for managers');
      const newest = await author.c.call(ops.createProblemVersion, {
        params: { problemId: p.id },
        body: { note: 'second', props: { archiveNo: 7 }, files: [{ fileId: extra.id, name: 'notes.txt', scope: 'manager' }], package: { fileId: pkg.id } },
      });
      await share(author.c, p.id, 'instance');
      const files = j.count('files');

      clock.advance(5);
      const res = await send('POST', `/problems/${p.id}/duplicate`, colleague.c);
      expect(res.status).toBe(201);
      const copy = res.body as Problem;
      expect(res.headers.get('location')).toBe(`/api/v1/problems/${copy.id}`);
      expect(copy).toMatchObject({
        slug: `${slug}-2`,
        name: 'Original (copy)',
        type: p.type,
        external: false,
        ownerUserId: colleague.u.id,
        visibility: 'private',
        sharedWith: [],
        currentVersion: 1,
        versionCount: 1,
        attachedCount: 0,
        createdAt: clock.now().toISOString(),
      });
      const [v1, ...rest] = await colleague.c.call(ops.listProblemVersions, { params: { problemId: copy.id } });
      expect(rest).toEqual([]);
      expect(v1).toMatchObject({ version: 1, note: `Copied from ${slug} v2`, props: { archiveNo: 7 }, hasPackage: true, package: newest.package });
      expect(v1!.files).toEqual(newest.files);
      expect(j.count('files')).toBe(files);
      // the copy's owner reads its package through the copied rows
      const bytes = await colleague.c.call(ops.downloadFile, { params: { id: pkg.id } });
      expect(Buffer.from(bytes as ArrayBuffer).length).toBe(pkg.sizeBytes);

      expect((await dup(author.c, p.id)).slug).toBe(`${slug}-3`);
      expect((await get(author.c, p.id)).versionCount).toBe(2);
    });

    it('copies a problem without versions as one without versions, and cuts a long slug to fit 64 characters', async () => {
      const long = `${uniq('L')}-${'x'.repeat(64)}`.slice(0, 64);
      const p = await create(author.c, { slug: long, name: 'n'.repeat(200) });
      const copy = await dup(author.c, p.id);
      expect(copy.slug).toBe(`${long.slice(0, 62)}-2`);
      expect(copy.name).toBe(`${'n'.repeat(193)} (copy)`);
      expect(copy).toMatchObject({ versionCount: 0, currentVersion: 0 });
      expect((await dup(author.c, p.id)).slug).toBe(`${long.slice(0, 62)}-3`);
    });

    it('refuses with 409 problem.slug.exhausted when -2 to -99 are all taken', async () => {
      const slug = uniq('full-');
      const p = await create(author.c, { slug });
      const insert = j.app.deps.sqlite.prepare("INSERT INTO problems (id, slug, slug_key, name, type, visibility, created_at) VALUES (?, ?, ?, 'x', 'standard-io@1', 'private', ?)");
      for (let n = 2; n <= 99; n++) insert.run(crypto.randomUUID(), `${slug}-${n}`, `${slug}-${n}`, clock.now().toISOString());
      await refused(dup(author.c, p.id), 409, 'problem.slug.exhausted');
    });

    it('who may: problem:create and read access; 404 when unreadable, 403 without problem:create', async () => {
      const p = await create(author.c);
      await refused(dup(colleague.c, p.id), 404, 'not_found');
      const e = await refused(dup(plain.c, p.id), 403, 'forbidden');
      expect(e.detail).toContain('problem:create');
      await refused(dup(librarian.c, p.id), 403, 'forbidden');
      await share(author.c, p.id, 'shared', [colleague.u.id]);
      expect((await dup(colleague.c, p.id)).ownerUserId).toBe(colleague.u.id);
      expect((await dup(admin, p.id)).ownerName).toBe('admin');
      await refused(dup(admin, UNKNOWN_UUID), 404, 'not_found');
    });
  });

  // ---------------------------------------------------------------- events

  describe('problemChanged', () => {
    it('goes to the owner, the users it is shared with and readers of all problems, and to nobody else', async () => {
      const owner = await cookieAccount('ev-owner', 'manager');
      const friend = await cookieAccount('ev-friend', 'manager');
      const reader = await cookieAccount('ev-reader', 'Librarian');
      const outsider = await cookieAccount('ev-outsider', 'manager');
      const streams = [owner, friend, reader, outsider].map((a) => a.c.events());
      const [toOwner, toFriend, toReader, toOutsider] = streams;
      try {
        await Promise.all(streams.map((s) => s.opened));
        const p = await create(owner.c);
        for (const s of [toOwner!, toReader!]) expect((await s.next('problemChanged')).data).toEqual({ problem: p });

        await share(owner.c, p.id, 'shared', [friend.u.id]);
        for (const s of [toOwner!, toReader!, toFriend!]) expect((await s.next('problemChanged')).data).toMatchObject({ problem: { id: p.id, sharedWith: [friend.u.id] } });

        await owner.c.call(ops.updateProblem, { params: { id: p.id }, body: { slug: p.slug, name: 'Renamed', type: p.type } });
        for (const s of [toOwner!, toReader!, toFriend!]) expect((await s.next('problemChanged')).data).toMatchObject({ problem: { id: p.id, name: 'Renamed' } });

        await owner.c.call(ops.setProblemArchived, { params: { id: p.id }, body: { archived: true } });
        for (const s of [toOwner!, toReader!, toFriend!]) expect((await s.next('problemChanged')).data).toMatchObject({ problem: { id: p.id, archivedAt: expect.any(String) } });
        await owner.c.call(ops.setProblemArchived, { params: { id: p.id }, body: { archived: false } });
        for (const s of [toOwner!, toReader!, toFriend!]) await s.next('problemChanged');

        await statementVersion(owner.c, p.id);
        for (const s of [toOwner!, toReader!, toFriend!]) expect((await s.next('problemChanged')).data).toMatchObject({ problem: { id: p.id, currentVersion: 1 } });

        const copy = await friend.c.call(ops.duplicateProblem, { params: { id: p.id } });
        for (const s of [toFriend!, toReader!]) expect((await s.next('problemChanged')).data).toEqual({ problem: copy });

        await admin.call(ops.deleteProblem, { params: { id: copy.id } });
        for (const s of [toFriend!, toReader!]) expect((await s.next('problemChanged')).data).toEqual({ deletedId: copy.id });

        // the outsider's first problemChanged is about its own problem: it heard nothing before
        const own = await create(outsider.c);
        expect((await toOutsider!.next('problemChanged')).data).toEqual({ problem: own });
        // nor did the owner hear of the friend's copy
        const more = await create(owner.c);
        expect((await toOwner!.next('problemChanged')).data).toEqual({ problem: more });
      } finally {
        for (const s of streams) s.close();
      }
    });
  });
});
