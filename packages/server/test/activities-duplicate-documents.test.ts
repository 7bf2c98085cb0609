import { describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { ops, type Activity } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { series, seriesProblems } from '../src/db/schema.js';
import { refusedWith } from './expect.js';
import { UNKNOWN_UUID } from './support/ids.js';
import { T0, UUID_V7, now, uniq, j, admin, refused, refusedRaw, account, create, activityRow, addSeries, assign, M, P, MB, U, SD, world, useActivitiesWorld } from './support/activities.js';

/**
 * The managers' side of activities over real HTTP and a real SQLite file (decisions §5, §7, §14):
 * duplicating activities and their documents, who may do each and who may not, what each refusal
 * leaves untouched. Shared setup in support/activities.ts.
 */

/** The series of an activity as stored, in their order. */
const seriesOf = (activityId: string) => j.app.deps.tx.read((q) => q.select().from(series).where(eq(series.activityId, activityId)).orderBy(asc(series.order), asc(series.id)));

describe('activities: the managers side', () => {
  useActivitiesWorld();

  describe('POST /activities/{id}/duplicate', () => {
    const dup = (c: JudgeClient, id: string, body: { slug: string; startsAt: string }) => c.call(ops.duplicateActivity, { params: { id }, body });

    it('copies settings, series, assignments and documents, unpublished, every date shifted to the new start', async () => {
      const a = await world({
        startDate: '2026-12-01T09:00:00Z',
        endDate: '2026-12-10T09:00:00Z',
        joinPolicy: 'password',
        joinPassword: 'secret',
        unlisted: false,
        props: { term: 'winter' },
        runnerTags: ['gpu'],
        maxSubmissionsPerProblem: 9,
      });
      const late = await addSeries(a.id, {
        startDate: '2026-12-02T10:00:00.000Z',
        endDate: '2026-12-02T15:00:00.000Z',
        rankingFreezeAt: '2026-12-02T14:00:00.000Z',
        rankingRevealAt: '2026-12-03T00:00:00.000Z',
        rankingVisibleFrom: '2026-12-02T10:00:00.000Z',
        rankingVisibleTo: '2026-12-31T00:00:00.000Z',
        importance: 3,
        importanceScope: 'none',
        addressRules: [{ network: '10.0.0.0/8', note: 'lab' }],
        restrictionsEnabled: true,
        runnerTags: ['big'],
        revealProblemCount: false,
      });
      // the earliest start, and a series that opened and was paused: the copy starts afresh
      const early = await addSeries(a.id, { startDate: '2026-12-01T12:00:00.000Z', isOpen: true, openedAt: '2026-12-01T12:00:00.000Z', pausedAt: '2026-12-01T13:00:00.000Z', hideProblemsWhilePaused: true });
      await addSeries(a.id);
      const pinnedTask = await assign(a.id, late, { name: 'Pinned', config: { languages: ['cpp'] }, spec: { k: 1 }, props: { p: true }, maxPoints: 100, maxUploadBytes: 2048, maxAttachments: 2, maxSubmissions: 7 });
      await j.app.deps.tx.write((q) => q.update(seriesProblems).set({ pinnedVersionId: pinnedTask.versionId }).where(eq(seriesProblems.id, pinnedTask.id)));
      await assign(a.id, early);
      const file = await M.c.upload('rules.md', '# Rules');
      const withDocs = await M.c.call(ops.setActivityDocuments, { params: { idOrSlug: a.id, kind: 'rules' }, body: { documents: [{ language: 'en', title: 'Rules', fileId: file.id }] } });
      const sourceBefore = JSON.stringify([await activityRow(a.id), await seriesOf(a.id)]);

      // 2026-12-01T12:00 (earliest series start) lands on 2027-01-10T12:00: forty days later
      const DAY = 86_400_000;
      const shift = (t: string) => new Date(Date.parse(t) + 40 * DAY).toISOString();
      const res = await M.c.send(ops.duplicateActivity, { params: { id: a.id }, body: { slug: 'Winter-Copy', startsAt: '2027-01-10T13:00:00+01:00' } });
      expect(res.status).toBe(201);
      const copy = (await res.json()) as Activity;
      expect(res.headers.get('location')).toBe(`/api/v1/manager/activities/${copy.id}`);
      const { id: _id, slug: _slug, publishedAt: _p, joinPassword: _pw, ...kept } = withDocs;
      expect(copy).toEqual({
        ...kept,
        id: expect.stringMatching(UUID_V7),
        slug: 'Winter-Copy',
        startDate: shift('2026-12-01T09:00:00.000Z'),
        endDate: shift('2026-12-10T09:00:00.000Z'),
        seriesCount: 3,
        problemCount: 2,
        participantCount: 0,
      });
      expect(copy.documents).toEqual(withDocs.documents);

      const copied = await seriesOf(copy.id);
      const original = await seriesOf(a.id);
      expect(copied).toHaveLength(3);
      for (const o of original) {
        const c = copied.find((x) => x.slug === o.slug)!;
        const dates = ['startDate', 'endDate', 'rankingFreezeAt', 'rankingRevealAt', 'rankingVisibleFrom', 'rankingVisibleTo'] as const;
        for (const k of dates) expect(c[k]).toBe(o[k] ? shift(o[k]!) : null);
        expect(c).toMatchObject({ isOpen: false, openedAt: null, pausedAt: null, name: o.name, order: o.order, importance: o.importance, importanceScope: o.importanceScope });
        expect(c.addressRules).toEqual(o.addressRules);
        expect(c.runnerTags).toEqual(o.runnerTags);
        expect(c.restrictionsEnabled).toBe(o.restrictionsEnabled);
        expect(c.revealProblemCount).toBe(o.revealProblemCount);
        expect(c.id).not.toBe(o.id);
      }
      const tasks = await j.app.deps.tx.read((q) => q.select().from(seriesProblems).where(eq(seriesProblems.activityId, copy.id)));
      const pinnedCopy = tasks.find((t) => t.problemId === pinnedTask.problemId)!;
      const [pinnedOrig] = await j.app.deps.tx.read((q) => q.select().from(seriesProblems).where(eq(seriesProblems.id, pinnedTask.id)));
      const { id: _a, seriesId: _b, activityId: _c, createdAt: _d, ...assignmentFields } = pinnedOrig!;
      expect(pinnedCopy).toMatchObject(assignmentFields);
      expect(pinnedCopy.pinnedVersionId).toBe(pinnedTask.versionId);
      expect(copied.find((x) => x.id === pinnedCopy.seriesId)!.slug).toBe(original.find((x) => x.id === late)!.slug);

      // the copier manages the copy; the source's participants know nothing of it
      expect(await M.c.call(ops.myPermissions, { query: { activityId: copy.id } })).toContain('activity:update');
      expect((await admin.call(ops.listGrants, { query: { activityId: copy.id } })).items.map((g) => g.userId)).toEqual([M.u.id]);
      await refusedWith(P.c.call(ops.getActivity, { params: { idOrSlug: copy.id } }), 404, 'not_found');
      expect(JSON.stringify([await activityRow(a.id), await seriesOf(a.id)])).toBe(sourceBefore);
    });

    it("without a series start shifts by the activity's start; without either shifts nothing", async () => {
      const a = await create(M.c, { startDate: '2026-12-01T00:00:00Z', endDate: '2026-12-02T00:00:00Z' });
      await addSeries(a.id, { endDate: '2026-12-01T12:00:00.000Z' });
      const copy = await dup(M.c, a.id, { slug: uniq('shifted'), startsAt: '2026-12-03T00:00:00Z' });
      expect(copy).toMatchObject({ startDate: '2026-12-03T00:00:00.000Z', endDate: '2026-12-04T00:00:00.000Z' });
      expect((await seriesOf(copy.id))[0]!.endDate).toBe('2026-12-03T12:00:00.000Z');

      const undated = await create(M.c, { endDate: '2026-12-02T00:00:00Z' });
      await addSeries(undated.id, { endDate: '2026-12-01T12:00:00.000Z' });
      const same = await dup(M.c, undated.id, { slug: uniq('unshifted'), startsAt: '2030-01-01T00:00:00Z' });
      expect(same.startDate).toBeUndefined();
      expect(same.endDate).toBe('2026-12-02T00:00:00.000Z');
      expect((await seriesOf(same.id))[0]!.endDate).toBe('2026-12-01T12:00:00.000Z');
    });

    it('refuses a slug in use in any case (409 activity.slug.taken)', async () => {
      const a = await create(M.c, { slug: uniq('Source') });
      await refused(dup(M.c, a.id, { slug: a.slug.toUpperCase(), startsAt: T0 }), 409, 'activity.slug.taken');
    });

    it('needs activity:create system-wide and activity:update on the source', async () => {
      const a = await world();
      const open = await world({ joinPolicy: 'open', unlisted: false });
      const appointed = await account('appointed');
      await j.grant(appointed.u.id, 'manager', a.id);
      const body = () => ({ slug: uniq('dup'), startsAt: T0 });
      // manages the source, may not create
      await refused(dup(appointed.c, a.id, body()), 403, 'forbidden');
      await refused(dup(P.c, a.id, body()), 403, 'forbidden');
      // may create, does not manage the source: 404 where it is unseen, 403 where it is seen
      await refused(dup(MB.c, a.id, body()), 404, 'not_found');
      await refused(dup(MB.c, open.id, body()), 403, 'forbidden');
      await refused(dup(SD.c, a.id, body()), 403, 'forbidden');
      await refused(dup(M.c, UNKNOWN_UUID, body()), 404, 'not_found');
      expect((await dup(admin, a.id, body())).publishedAt).toBeUndefined();
    });

    it('refuses malformed input', async () => {
      const a = await create(M.c);
      await refusedRaw(M.c, 'POST', `/activities/${a.id}/duplicate`, { slug: uniq('x'), startsAt: 'soon' }, 422, 'validation_failed');
      await refusedRaw(M.c, 'POST', `/activities/${a.id}/duplicate`, { startsAt: T0 }, 422, 'validation_failed');
      await refusedRaw(M.c, 'POST', `/activities/${a.slug}/duplicate`, { slug: uniq('x'), startsAt: T0 }, 404, 'not_found');
    });
  });

  describe('PUT and DELETE /activities/{idOrSlug}/documents/{kind}', () => {
    const put = (c: JudgeClient, idOrSlug: string, kind: 'rules' | 'welcome' | 'terms', documents: { language: string; title: string; fileId: string; validFrom?: string }[]) =>
      c.call(ops.setActivityDocuments, { params: { idOrSlug, kind }, body: { documents } });
    const del = (c: JudgeClient, idOrSlug: string, kind: 'rules' | 'welcome') => c.call(ops.deleteActivityDocuments, { params: { idOrSlug, kind } });

    it('replaces the documents of one kind, leaves the other kinds, and deletes a kind', async () => {
      const a = await world();
      const en = await M.c.upload('rules-en.md', '# Rules');
      const pl = await M.c.upload('rules-pl.md', '# Regulamin, dłuższy');
      const hi = await M.c.upload('welcome.md', 'Hello');
      const withRules = await put(M.c, a.slug, 'rules', [
        { language: 'pl', title: 'Regulamin', fileId: pl.id },
        { language: 'en', title: 'Rules', fileId: en.id, validFrom: '2026-12-01T00:00:00+02:00' },
      ]);
      expect(withRules.documents).toEqual([
        { kind: 'rules', language: 'en', title: 'Rules', validFrom: '2026-11-30T22:00:00.000Z', fileId: en.id, sha256: en.sha256, sizeBytes: en.sizeBytes },
        { kind: 'rules', language: 'pl', title: 'Regulamin', validFrom: now(), fileId: pl.id, sha256: pl.sha256, sizeBytes: pl.sizeBytes },
      ]);
      await put(M.c, a.id, 'welcome', [{ language: 'en', title: 'Welcome', fileId: hi.id }]);
      const replaced = await put(M.c, a.id, 'rules', [{ language: 'en', title: 'Rules v2', fileId: en.id }]);
      expect(replaced.documents.map((d) => [d.kind, d.language, d.title])).toEqual([
        ['rules', 'en', 'Rules v2'],
        ['welcome', 'en', 'Welcome'],
      ]);
      // participants see them too
      expect((await P.c.call(ops.getActivity, { params: { idOrSlug: a.id } })).documents).toEqual(replaced.documents);

      const removed = await del(M.c, a.id, 'rules');
      expect(removed.documents.map((d) => d.kind)).toEqual(['welcome']);
      expect((await del(M.c, a.id, 'rules')).documents).toEqual(removed.documents);
    });

    it("makes a document's file readable to whoever sees the activity, and to nobody else", async () => {
      const a = await world();
      const file = await M.c.upload('rules.md', '# Members only');
      await refusedWith(P.c.call(ops.getFileMeta, { params: { id: file.id } }), 404, 'not_found');
      await put(M.c, a.id, 'rules', [{ language: 'en', title: 'Rules', fileId: file.id }]);
      expect((await P.c.call(ops.getFileMeta, { params: { id: file.id } })).sha256).toBe(file.sha256);
      const bytes = await P.c.call(ops.downloadFile, { params: { id: file.id } });
      expect(Buffer.from(bytes).toString()).toBe('# Members only');
      await refusedWith(U.c.call(ops.getFileMeta, { params: { id: file.id } }), 404, 'not_found');
      await refusedWith(MB.c.call(ops.getFileMeta, { params: { id: file.id } }), 404, 'not_found');
      await del(M.c, a.id, 'rules');
      await refusedWith(P.c.call(ops.getFileMeta, { params: { id: file.id } }), 404, 'not_found');
    });

    it('refuses a file that does not exist or that the caller may not read (422 file.missing)', async () => {
      const a = await world();
      const mine = await M.c.upload('mine.md', 'mine');
      const theirs = await U.c.upload('theirs.md', 'theirs');
      const e = await refused(put(M.c, a.id, 'rules', [{ language: 'en', title: 'R', fileId: mine.id }, { language: 'pl', title: 'R', fileId: UNKNOWN_UUID }]), 422, 'file.missing');
      expect(Object.keys(e.errors ?? {})).toEqual(['documents.1.fileId']);
      await refused(put(M.c, a.id, 'rules', [{ language: 'en', title: 'R', fileId: theirs.id }]), 422, 'file.missing');
      // an administrator reads every file, so may use it
      expect((await put(admin, a.id, 'rules', [{ language: 'en', title: 'R', fileId: theirs.id }])).documents[0]!.fileId).toBe(theirs.id);
      // a co-manager may keep what is already there while changing the rest
      const co = await account('co-manager');
      await j.grant(co.u.id, 'manager', a.id);
      const coFile = await co.c.upload('pl.md', 'pl');
      const kept = await put(co.c, a.id, 'rules', [{ language: 'en', title: 'R', fileId: theirs.id }, { language: 'pl', title: 'R', fileId: coFile.id }]);
      expect(kept.documents.map((d) => d.fileId)).toEqual([theirs.id, coFile.id]);
    });

    it('needs activity:update there and an unarchived activity', async () => {
      const a = await world();
      const file = await P.c.upload('p.md', 'p');
      const doc = [{ language: 'en', title: 'R', fileId: file.id }];
      await refused(put(P.c, a.id, 'rules', doc), 403, 'forbidden');
      await refused(del(P.c, a.id, 'rules'), 403, 'forbidden');
      await refused(put(U.c, a.id, 'rules', doc), 404, 'not_found');
      await refused(del(MB.c, a.id, 'rules'), 404, 'not_found');
      await refused(put(SD.c, a.id, 'rules', doc), 403, 'forbidden');
    });

    it('refuses malformed input', async () => {
      const a = await create(M.c);
      const f = await M.c.upload('x.md', 'x');
      const path = (kind: string) => `/activities/${a.id}/documents/${kind}`;
      await refusedRaw(M.c, 'PUT', path('novel'), { documents: [{ language: 'en', title: 'N', fileId: f.id }] }, 404, 'not_found');
      for (const documents of [[], [{ language: '1', title: 'T', fileId: f.id }], [{ language: 'en', title: '', fileId: f.id }], [{ language: 'en', title: 'T', fileId: 'x' }], [{ language: 'en', title: 'T', fileId: f.id, validFrom: 'later' }], 'all']) {
        await refusedRaw(M.c, 'PUT', path('rules'), { documents }, 422, 'validation_failed');
      }
      const twice = await refusedRaw(M.c, 'PUT', path('rules'), { documents: [{ language: 'en', title: 'A', fileId: f.id }, { language: 'EN', title: 'B', fileId: f.id }] }, 422, 'validation_failed');
      expect(Object.keys(twice.errors!)).toEqual(['documents.1.language']);
      await refusedRaw(M.c, 'DELETE', path('novel'), undefined, 404, 'not_found');
    });
  });
});
