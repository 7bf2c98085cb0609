import { describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { eq } from 'drizzle-orm';
import { problemShares } from '../src/db/schema.js';
import { UNKNOWN_UUID } from './support/ids.js';
import { uniq, j, clock, admin, author, colleague, plain, librarian, editor, remover, snapshot, refused, create, get, share, send, useProblemLibrary } from './support/problems.js';

/**
 * The problem library over real HTTP and a real SQLite file: renaming, archiving and sharing
 * problems (their visibility), and who may do each. Versions and packages have their own file
 * (packages.test.ts); shared setup in support/problems.ts.
 */

describe('problems', () => {
  useProblemLibrary();

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
        const before = await snapshot();
        const res = await send('PUT', `/problems/${p.id}`, author.c, body);
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body.code).toBe('validation_failed');
        expect(await snapshot()).toBe(before);
      }
    });
  });

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
        const before = await snapshot();
        const res = await send('POST', `/problems/${p.id}/archived`, author.c, body);
        expect(res.status).toBe(422);
        expect(await snapshot()).toBe(before);
      }
    });
  });

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
      expect(await j.app.deps.tx.read((q) => q.select().from(problemShares).where(eq(problemShares.problemId, p.id)))).toEqual([]);
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
        const before = await snapshot();
        const res = await send('POST', `/problems/${p.id}/visibility`, author.c, body);
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body.code).toBe('validation_failed');
        expect(await snapshot()).toBe(before);
      }
    });
  });
});
