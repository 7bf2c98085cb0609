import { beforeAll, describe, expect, it } from 'vitest';
import { isNull } from 'drizzle-orm';
import { ops, type Activity } from '@judge/contract';
import { activities } from '../src/db/schema.js';
import { refusedWith } from './expect.js';
import { type Party } from './harness.js';
import { clock, uniq, j, admin, refusedRaw, account, create, managed, archive, addSeries, assign, M, P, MB, U, SD, standDown, world, useActivitiesWorld } from './support/activities.js';

/**
 * The managers' side of activities over real HTTP and a real SQLite file (decisions §5, §7, §14):
 * the manager views, who may do each and who may not, what each refusal leaves untouched. Shared
 * setup in support/activities.ts.
 */

describe('activities: the managers side', () => {
  useActivitiesWorld();

  describe('GET /manager/activities, /summary and /{idOrSlug}', () => {
    let X: Party;
    let a1: Activity, a2: Activity, a3: Activity, foreign: Activity;

    beforeAll(async () => {
      X = await account('lister', { creator: true });
      a1 = await create(X.c, { slug: uniq('needle-one'), name: 'First' });
      clock.advance(1);
      a2 = await create(X.c, { name: 'Second NEEDLE' });
      clock.advance(1);
      a3 = await create(X.c, { name: 'Third' });
      await archive(X.c, a2.id, true);
      foreign = await create(MB.c, { name: 'Not X' });
      await j.grant(X.u.id, 'participant', foreign.id);
    });

    const ids = (p: { items: { id: string }[] }) => p.items.map((x) => x.id);

    it('lists what the caller manages, newest first, archived only when asked', async () => {
      const page = await X.c.call(ops.listManagedActivities, { query: {} });
      expect(page).toMatchObject({ total: 2, page: 1, pageSize: 20 });
      expect(ids(page)).toEqual([a3.id, a1.id]);
      expect(page.items[1]).toEqual(await managed(X.c, a1.id));
      expect(ids(await X.c.call(ops.listManagedActivities, { query: { includeArchived: 'true' } }))).toEqual([a3.id, a2.id, a1.id]);
      expect(ids(await X.c.call(ops.listManagedActivities, { query: { includeArchived: '1', search: 'NeEdLe' } }))).toEqual([a2.id, a1.id]);
      expect(ids(await X.c.call(ops.listManagedActivities, { query: { search: 'needle' } }))).toEqual([a1.id]);
      expect(ids(await X.c.call(ops.listManagedActivities, { query: { search: '%' } }))).toEqual([]);
      const second = await X.c.call(ops.listManagedActivities, { query: { page: 2, pageSize: 1 } });
      expect(second).toMatchObject({ total: 2, page: 2, pageSize: 1 });
      expect(ids(second)).toEqual([a1.id]);
      expect(await X.c.call(ops.listManagedActivities, { query: { pageSize: 0 } })).toMatchObject({ pageSize: 1 });
      expect(await X.c.call(ops.listManagedActivities, { query: { pageSize: 1000 } })).toMatchObject({ pageSize: 200 });
    });

    it('gives the summary of the unarchived ones', async () => {
      expect(await X.c.call(ops.managedActivitiesSummary)).toEqual([
        { id: a3.id, slug: a3.slug, name: 'Third' },
        { id: a1.id, slug: a1.slug, name: 'First' },
      ]);
      expect(await P.c.call(ops.managedActivitiesSummary)).toEqual([]);
      expect(await U.c.call(ops.managedActivitiesSummary)).toEqual([]);
    });

    it('lists everything to an administrator, except where they stood down', async () => {
      const all = await admin.call(ops.listManagedActivities, { query: { pageSize: 200 } });
      const unarchived = await j.app.deps.tx.read((q) => q.select({ id: activities.id }).from(activities).where(isNull(activities.archivedAt)));
      expect(all.total).toBe(unarchived.length);
      expect(ids(all)).toEqual(expect.arrayContaining([a1.id, a3.id, foreign.id]));
      await standDown(a3.id);
      const sd = await SD.c.call(ops.listManagedActivities, { query: { pageSize: 200 } });
      expect(ids(sd)).toContain(a1.id);
      expect(ids(sd)).not.toContain(a3.id);
      expect((await SD.c.call(ops.managedActivitiesSummary)).map((x) => x.id)).not.toContain(a3.id);
      await refusedWith(managed(SD.c, a3.id), 404, 'not_found');
      expect((await managed(SD.c, a1.id)).id).toBe(a1.id);
    });

    it('lists nothing a participant or a plain user takes part in', async () => {
      expect(await P.c.call(ops.listManagedActivities, { query: {} })).toMatchObject({ items: [], total: 0 });
      expect(ids(await X.c.call(ops.listManagedActivities, { query: { pageSize: 200 } }))).not.toContain(foreign.id);
    });

    it('reads one managed activity, join password included, by id or slug; to anyone else it does not exist', async () => {
      const a = await world({ joinPolicy: 'password', joinPassword: 'letmein', unlisted: false });
      expect(await managed(M.c, a.slug.toUpperCase())).toMatchObject({ id: a.id, joinPassword: 'letmein' });
      expect((await managed(admin, a.id)).joinPassword).toBe('letmein');
      for (const c of [P.c, U.c, MB.c, SD.c]) await refusedWith(managed(c, a.id), 404, 'not_found');
      await refusedWith(managed(M.c, 'no-such-activity'), 404, 'not_found');
    });

    it('counts series, assignments and participants', async () => {
      const a = await world();
      const s = await addSeries(a.id);
      await assign(a.id, s);
      await assign(a.id, await addSeries(a.id));
      const co = await account('co');
      await j.grant(co.u.id, 'manager', a.id);
      // P and the stood-down administrator take part; M and the co-manager manage
      expect(await managed(M.c, a.id)).toMatchObject({ seriesCount: 2, problemCount: 2, participantCount: 2, matchingRunners: 0 });
    });

    it('refuses a malformed query', async () => {
      await refusedRaw(X.c, 'GET', '/manager/activities?includeArchived=maybe', undefined, 422, 'validation_failed');
      await refusedRaw(X.c, 'GET', '/manager/activities?page=first', undefined, 422, 'validation_failed');
    });
  });
});
