import { describe, expect, it } from 'vitest';
import { ops, type Problem } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { UNKNOWN_UUID } from './support/ids.js';
import { uniq, j, clock, admin, author, colleague, plain, librarian, editor, remover, snapshot, refused, create, get, list, share, send, useProblemLibrary } from './support/problems.js';

/**
 * The problem library over real HTTP and a real SQLite file: creating, reading and listing
 * problems, and who may do each. Versions and packages have their own file (packages.test.ts);
 * shared setup in support/problems.ts.
 */

describe('problems', () => {
  useProblemLibrary();

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
        const before = await snapshot();
        const res = await send('POST', '/problems', author.c, body);
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body.code).toBe('validation_failed');
        expect(Object.keys(res.body.errors)).toContain(field);
        expect(await snapshot()).toBe(before);
      }
      const before = await snapshot();
      expect((await send('POST', '/problems', author.c, '{"slug": ')).status).toBe(400);
      expect((await send('POST', '/problems', author.c, '[1, 2]')).status).toBe(422);
      expect(await snapshot()).toBe(before);
    });
  });

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
      // shared with me: others' problems given to me by name or to everyone, never my own or what only read:all shows
      expect(await ids(colleague.c, { sharedOnly: 'true' })).toEqual([shared.id, everyone.id].sort());
      expect(await ids(author.c, { sharedOnly: 'true' })).toEqual([]);
      expect(await ids(librarian.c, { sharedOnly: 'true' })).toEqual([everyone.id]);
      expect(await ids(colleague.c, { sharedOnly: 'true', mineOnly: 'true' })).toEqual([]);
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
      for (const q of ['mineOnly=maybe', 'sharedOnly=yes', 'includeArchived=yes', 'page=abc', 'pageSize=1.5', `search=${'x'.repeat(201)}`]) {
        const res = await send('GET', `/problems?${q}`, author.c);
        expect(res.status, q).toBe(422);
        expect(res.body.code).toBe('validation_failed');
      }
    });
  });
});
