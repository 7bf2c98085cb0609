import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { activityDocuments, grants, roles, series, seriesProblems } from '../src/db/schema.js';
import { refusedWith } from './expect.js';
import { UNKNOWN_UUID } from './support/ids.js';
import { clock, now, uniq, j, admin, refused, refusedRaw, account, create, managed, update, publish, archive, activityRow, addSeries, assign, addSubmission, M, P, MB, U, SD, world, useActivitiesWorld } from './support/activities.js';

/**
 * The managers' side of activities over real HTTP and a real SQLite file (decisions §5, §7, §14):
 * publishing, archiving and deleting activities, who may do each and who may not, what each refusal
 * leaves untouched. Shared setup in support/activities.ts.
 */

describe('activities: the managers side', () => {
  useActivitiesWorld();

  describe('POST /activities/{id}/published', () => {
    it('opens every due series at once on publishing and closes them on unpublishing; the first publication time is kept', async () => {
      const a = await world();
      const past = '2026-11-01T00:00:00.000Z';
      const future = '2027-01-01T00:00:00.000Z';
      const s = {
        started: await addSeries(a.id, { startDate: past }),
        undated: await addSeries(a.id),
        upcoming: await addSeries(a.id, { startDate: future }),
        ended: await addSeries(a.id, { startDate: past, endDate: '2026-11-02T00:00:00.000Z' }),
        paused: await addSeries(a.id, { startDate: past, pausedAt: past }),
      };
      const state = async () => {
        const rows = await j.app.deps.tx.read((q) => q.select().from(series).where(eq(series.activityId, a.id)));
        return Object.fromEntries(
          Object.entries(s).map(([k, id]) => {
            const r = rows.find((x) => x.id === id)!;
            return [k, { isOpen: r.isOpen, openedAt: r.openedAt }];
          }),
        );
      };

      clock.advance(60);
      const firstOpen = now();
      const again = await publish(M.c, a.id, true);
      expect(again.publishedAt).toBe(a.publishedAt);
      expect(await state()).toEqual({
        started: { isOpen: true, openedAt: firstOpen },
        undated: { isOpen: true, openedAt: firstOpen },
        upcoming: { isOpen: false, openedAt: null },
        ended: { isOpen: false, openedAt: null },
        paused: { isOpen: false, openedAt: null },
      });

      clock.advance(60);
      const hidden = await publish(M.c, a.id, false);
      expect(hidden.publishedAt).toBeUndefined();
      expect((await activityRow(a.id))!.publishedAt).toBeNull();
      expect(Object.values(await state()).every((x) => !x.isOpen)).toBe(true);
      // participants lose it entirely; its managers keep it
      await refusedWith(P.c.call(ops.getActivity, { params: { idOrSlug: a.id } }), 404, 'not_found');
      expect((await P.c.call(ops.listActivities, { query: {} })).items.map((x) => x.id)).not.toContain(a.id);
      expect((await managed(M.c, a.id)).publishedAt).toBeUndefined();

      clock.advance(60);
      const shown = await publish(M.c, a.id, true);
      expect(shown.publishedAt).toBe(now());
      // reopened, and the first opening is what openedAt remembers
      expect(await state()).toMatchObject({ started: { isOpen: true, openedAt: firstOpen }, undated: { isOpen: true, openedAt: firstOpen }, upcoming: { isOpen: false } });
      expect((await P.c.call(ops.getActivity, { params: { idOrSlug: a.id } })).id).toBe(a.id);
    });

    it('needs activity:update there; takes only a UUID and a boolean', async () => {
      const a = await world();
      await refused(publish(P.c, a.id, false), 403, 'forbidden');
      await refused(publish(SD.c, a.id, false), 403, 'forbidden');
      await refused(publish(U.c, a.id, false), 404, 'not_found');
      await refused(publish(MB.c, a.id, false), 404, 'not_found');
      await refused(publish(M.c, UNKNOWN_UUID, false), 404, 'not_found');
      await refusedRaw(M.c, 'POST', `/activities/not-a-uuid/published`, { published: false }, 404, 'not_found');
      await refusedRaw(M.c, 'POST', `/activities/${a.slug}/published`, { published: false }, 404, 'not_found');
      await refusedRaw(M.c, 'POST', `/activities/${a.id}/published`, { published: 'no' }, 422, 'validation_failed');
      await refusedRaw(M.c, 'POST', `/activities/${a.id}/published`, {}, 422, 'validation_failed');
      expect((await publish(admin, a.id, false)).publishedAt).toBeUndefined();
    });
  });

  describe('POST /activities/{idOrSlug}/archived', () => {
    it('archives: hidden from lists, readable by id to members, refusing writes; restoring undoes it', async () => {
      const a = await world({ joinPolicy: 'open', unlisted: false });
      const doc = await M.c.upload('rules.md', '# Rules');
      const archivedAt = now();
      const res = await archive(M.c, a.slug, true);
      expect(res.archivedAt).toBe(archivedAt);
      clock.advance(5);
      expect((await archive(M.c, a.id, true)).archivedAt).toBe(archivedAt);

      expect((await P.c.call(ops.getActivity, { params: { idOrSlug: a.slug } })).archivedAt).toBe(archivedAt);
      expect((await U.c.call(ops.listActivities, { query: { search: a.slug } })).items).toEqual([]);
      expect((await M.c.call(ops.listManagedActivities, { query: { search: a.slug } })).items).toEqual([]);
      expect((await M.c.call(ops.listManagedActivities, { query: { search: a.slug, includeArchived: 'true' } })).items.map((x) => x.id)).toEqual([a.id]);

      await refused(update(M.c, a, { name: 'Late' }), 409, 'activity.archived');
      await refused(M.c.call(ops.setActivityDocuments, { params: { idOrSlug: a.id, kind: 'rules' }, body: { documents: [{ language: 'en', title: 'Rules', fileId: doc.id }] } }), 409, 'activity.archived');
      await refused(M.c.call(ops.deleteActivityDocuments, { params: { idOrSlug: a.id, kind: 'rules' } }), 409, 'activity.archived');
      await refused(U.c.call(ops.enrol, { params: { idOrSlug: a.id }, body: {} }), 409, 'activity.archived');

      const restored = await archive(M.c, a.id, false);
      expect(restored.archivedAt).toBeUndefined();
      expect((await update(M.c, a, { name: 'Back' })).name).toBe('Back');
      expect((await U.c.call(ops.listActivities, { query: { search: a.slug } })).items.map((x) => x.id)).toEqual([a.id]);
    });

    it('needs activity:archive there', async () => {
      const a = await world();
      await refused(archive(P.c, a.id, true), 403, 'forbidden');
      await refused(archive(SD.c, a.id, true), 403, 'forbidden');
      await refused(archive(U.c, a.id, true), 404, 'not_found');
      await refused(archive(MB.c, a.slug, true), 404, 'not_found');
      // a role that may edit but not archive
      const editor = await account('editor');
      const role = await admin.call(ops.createRole, { body: { name: uniq('Editor'), permissions: ['activity:read', 'activity:update'], activityId: a.id } });
      await admin.call(ops.createGrant, { body: { userId: editor.u.id, roleId: role.id, activityId: a.id } });
      expect((await update(editor.c, a, { name: 'Edited' })).name).toBe('Edited');
      await refused(archive(editor.c, a.id, true), 403, 'forbidden');
      expect((await archive(admin, a.id, true)).archivedAt).toBe(now());
    });

    it('refuses malformed bodies', async () => {
      const a = await create(M.c);
      await refusedRaw(M.c, 'POST', `/activities/${a.id}/archived`, { archived: 1 }, 422, 'validation_failed');
      await refusedRaw(M.c, 'POST', `/activities/${a.id}/archived`, 'not json', 400, 'request.malformed');
    });
  });

  describe('DELETE /activities/{idOrSlug}', () => {
    it('deletes it with its series, assignments, documents, roles and grants; the files stay', async () => {
      const a = await world();
      const s = await addSeries(a.id);
      await assign(a.id, s);
      const file = await M.c.upload('rules.md', '# Rules');
      await M.c.call(ops.setActivityDocuments, { params: { idOrSlug: a.id, kind: 'rules' }, body: { documents: [{ language: 'en', title: 'Rules', fileId: file.id }] } });
      const helper = await account('helper');
      const role = await admin.call(ops.createRole, { body: { name: uniq('Helper'), permissions: ['activity:read'], activityId: a.id } });
      await admin.call(ops.createGrant, { body: { userId: helper.u.id, roleId: role.id, activityId: a.id } });

      const res = await admin.send(ops.deleteActivity, { params: { idOrSlug: a.slug } });
      expect(res.status).toBe(204);
      const left = await j.app.deps.tx.read(async (q) => [
        await q.select().from(series).where(eq(series.activityId, a.id)),
        await q.select().from(seriesProblems).where(eq(seriesProblems.activityId, a.id)),
        await q.select().from(activityDocuments).where(eq(activityDocuments.activityId, a.id)),
        await q.select().from(grants).where(eq(grants.activityId, a.id)),
        await q.select().from(roles).where(eq(roles.activityId, a.id)),
      ]);
      expect(await activityRow(a.id)).toBeUndefined();
      expect(left).toEqual([[], [], [], [], []]);
      expect((await M.c.call(ops.getFileMeta, { params: { id: file.id } })).id).toBe(file.id);
      // and nobody holds anything there any more
      await refusedWith(managed(M.c, a.id), 404, 'not_found');
      expect(await P.c.call(ops.myPermissions, { query: { activityId: a.id } })).toEqual([]);
    });

    it('refuses while it holds submissions (409 activity.hasSubmissions)', async () => {
      const a = await world();
      await addSubmission(a.id, P.u.id);
      await refused(admin.call(ops.deleteActivity, { params: { idOrSlug: a.id } }), 409, 'activity.hasSubmissions');
    });

    it('needs activity:delete there, which the built-in manager role does not hold', async () => {
      const a = await world();
      const del = (c: JudgeClient) => c.call(ops.deleteActivity, { params: { idOrSlug: a.id } });
      await refused(del(M.c), 403, 'forbidden');
      await refused(del(P.c), 403, 'forbidden');
      await refused(del(SD.c), 403, 'forbidden');
      await refused(del(U.c), 404, 'not_found');
      await refused(del(MB.c), 404, 'not_found');
      await refused(admin.call(ops.deleteActivity, { params: { idOrSlug: 'no-such-slug' } }), 404, 'not_found');
      // a role of the activity that carries the key
      const owner = await account('owner');
      const role = await admin.call(ops.createRole, { body: { name: uniq('Owner'), permissions: ['activity:read', 'activity:delete'], activityId: a.id } });
      await admin.call(ops.createGrant, { body: { userId: owner.u.id, roleId: role.id, activityId: a.id } });
      await owner.c.call(ops.deleteActivity, { params: { idOrSlug: a.id } });
      expect((await activityRow(a.id))).toBeUndefined();
      const other = await world();
      await admin.call(ops.deleteActivity, { params: { idOrSlug: other.slug } });
      expect((await activityRow(other.id))).toBeUndefined();
    });
  });
});
