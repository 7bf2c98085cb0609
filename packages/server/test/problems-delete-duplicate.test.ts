import { describe, expect, it } from 'vitest';
import { ops, type Problem } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { eq } from 'drizzle-orm';
import { problemShares, problemVersionFiles, problemVersions, problems, series, seriesProblems } from '../src/db/schema.js';
import { legacyPackage, zipOf } from './zips.js';
import { UNKNOWN_UUID } from './support/ids.js';
import { uniq, j, clock, admin, author, colleague, plain, librarian, remover, refused, create, get, share, statementVersion, send, useProblemLibrary } from './support/problems.js';

/**
 * The problem library over real HTTP and a real SQLite file: deleting and duplicating problems, and
 * who may do each. Versions and packages have their own file (packages.test.ts); shared setup in
 * support/problems.ts.
 */

describe('problems', () => {
  useProblemLibrary();

  describe('DELETE /problems/{id}', () => {
    /**
     * A series of a fresh activity using the problem, written directly: the series API is another
     * area's.
     */
    async function attach(problemId: string): Promise<string> {
      const activityId = await j.insertActivity(uniq('act-'));
      const seriesId = crypto.randomUUID();
      const now = clock.now().toISOString();
      const id = crypto.randomUUID();
      await j.app.deps.tx.write(async (q) => {
        await q.insert(series).values({ id: seriesId, activityId, slug: 's1', slugKey: 's1', name: 'Series 1', order: 1, createdAt: now });
        await q.insert(seriesProblems).values({ id, seriesId, activityId, problemId, slug: 'a', slugKey: 'a', order: 1, createdAt: now });
      });
      return id;
    }
    const del = (c: JudgeClient, id: string) => c.call(ops.deleteProblem, { params: { id } });

    it('deletes with its versions, files rows and shares; the uploaded files stay', async () => {
      const p = await create(remover.c);
      await statementVersion(remover.c, p.id);
      await statementVersion(remover.c, p.id, '# v2');
      await share(admin, p.id, 'shared', [colleague.u.id]);
      const files = (await j.count('files'));
      const res = await send('DELETE', `/problems/${p.id}`, remover.c);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      await refused(get(admin, p.id), 404, 'not_found');
      const left = await j.app.deps.tx.read(async (q) => ({
        versions: (await q.select().from(problemVersions).where(eq(problemVersions.problemId, p.id))).length,
        shares: (await q.select().from(problemShares).where(eq(problemShares.problemId, p.id))).length,
        // every file row left belongs to a version left
        fileRows: (await q.select().from(problemVersionFiles)).length,
        ofVersions: (await q.select({ id: problemVersionFiles.fileId }).from(problemVersionFiles).innerJoin(problemVersions, eq(problemVersions.id, problemVersionFiles.versionId))).length,
      }));
      expect(left.versions).toBe(0);
      expect(left.shares).toBe(0);
      expect(left.fileRows).toBe(left.ofVersions);
      expect((await j.count('files'))).toBe(files);
      // the slug is free again
      expect((await create(remover.c, { slug: p.slug })).slug).toBe(p.slug);
    });

    it('refuses while an assignment uses it (409 problem.attached), which attachedCount shows', async () => {
      const p = await create(remover.c);
      const assignment = await attach(p.id);
      expect((await get(remover.c, p.id)).attachedCount).toBe(1);
      const e = await refused(del(remover.c, p.id), 409, 'problem.attached');
      expect(e.detail).toContain('1 assignment');
      await j.app.deps.tx.write((q) => q.delete(seriesProblems).where(eq(seriesProblems.id, assignment)));
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
      const files = (await j.count('files'));

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
      expect((await j.count('files'))).toBe(files);
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
      const taken = Array.from({ length: 98 }, (_, i) => `${slug}-${i + 2}`);
      await j.app.deps.tx.write((q) =>
        q.insert(problems).values(taken.map((s) => ({ id: crypto.randomUUID(), slug: s, slugKey: s, name: 'x', type: 'standard-io@1', visibility: 'private', createdAt: clock.now().toISOString() }))),
      );
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
});
