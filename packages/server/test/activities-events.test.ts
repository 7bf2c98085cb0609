import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity } from '@judge/contract';
import type { EventStream, Frame, JudgeClient } from '@judge/sdk';
import { refusedWith } from './expect.js';
import { ADMIN_PASSWORD, type Party } from './harness.js';
import { j, admin, account, create, update, publish, archive, addSeries, assign, MB, useActivitiesWorld } from './support/activities.js';

/**
 * The managers' side of activities over real HTTP and a real SQLite file (decisions §5, §7, §14):
 * which events reach whom when activities change. Shared setup in support/activities.ts.
 */

describe('activities: the managers side', () => {
  useActivitiesWorld();

  describe('events', () => {
    let cM: Party, cP: Party, cQ: Party, cU: Party;
    let adminC: JudgeClient;
    let S: Record<'admin' | 'manager' | 'participant' | 'elsewhere' | 'user', EventStream>;
    let other: Activity;
    let barriers = 0;

    /**
     * Frames each party got before a barrier every signed-in session hears (socket.test.ts explains
     * why it proves absence).
     */
    async function settle(): Promise<Record<keyof typeof S, Frame[]>> {
      const name = `Judge ${++barriers}`;
      await admin.call(ops.updateInstance, { body: { name } });
      const out = {} as Record<keyof typeof S, Frame[]>;
      for (const [k, s] of Object.entries(S) as [keyof typeof S, EventStream][]) {
        const f = await s.next('instanceChanged', 5000);
        expect((f.data as { instance: { name: string } }).instance.name).toBe(name);
        out[k] = s.frames.splice(0).filter((x) => x.type !== 'ping');
      }
      return out;
    }
    const typesOf = (got: Record<string, Frame[]>) => Object.fromEntries(Object.entries(got).map(([k, fs]) => [k, fs.map((f) => f.type).sort()]));

    beforeAll(async () => {
      [cM, cP, cQ, cU] = await Promise.all([
        account('ev-manager', { creator: true, how: 'cookie' }),
        account('ev-participant', { how: 'cookie' }),
        account('ev-elsewhere', { how: 'cookie' }),
        account('ev-user', { how: 'cookie' }),
      ]);
      adminC = await j.signIn({ username: 'admin', password: ADMIN_PASSWORD }, 'cookie');
      other = await create(MB.c);
      await j.grant(cQ.u.id, 'participant', other.id);
      S = { admin: adminC.events(), manager: cM.c.events(), participant: cP.c.events(), elsewhere: cQ.c.events(), user: cU.c.events() };
      await Promise.all(Object.values(S).map((s) => s.opened));
      await settle();
    });
    afterAll(() => Object.values(S).forEach((s) => s.close()));

    it('creating a closed activity tells its manager and administrators only; a listed open one tells everyone', async () => {
      const a = await create(cM.c);
      let got = await settle();
      expect(typesOf(got)).toEqual({
        admin: ['activityChanged', 'activityCreated', 'grantChanged'],
        manager: ['activityChanged', 'activityCreated', 'grantChanged'],
        participant: [],
        elsewhere: [],
        user: [],
      });
      expect(got.manager.find((f) => f.type === 'activityCreated')!.data).toEqual({ activityId: a.id, slug: a.slug, name: a.name });
      expect(got.manager.find((f) => f.type === 'activityChanged')!.data).toEqual({ activity: a });

      const open = await create(cM.c, { joinPolicy: 'open', unlisted: false });
      got = await settle();
      for (const k of ['participant', 'elsewhere', 'user'] as const) expect(got[k].map((f) => [f.type, f.data])).toEqual([['activityCreated', { activityId: open.id, slug: open.slug, name: open.name }]]);
    });

    it('an update tells members and managers (times too when dates change); activityChanged reaches managers only', async () => {
      const a = await create(cM.c);
      await j.grant(cP.u.id, 'participant', a.id);
      await settle();
      await update(cM.c, a, { name: 'Renamed' });
      let got = await settle();
      expect(typesOf(got)).toEqual({ admin: ['activityChanged', 'activityUpdated'], manager: ['activityChanged', 'activityUpdated'], participant: ['activityUpdated'], elsewhere: [], user: [] });
      expect(got.participant[0]!.data).toEqual({ activityId: a.id, slug: a.slug, name: 'Renamed' });

      const changed = await update(cM.c, a, { startDate: '2026-12-01T00:00:00Z' });
      got = await settle();
      expect(typesOf(got)).toMatchObject({ manager: ['activityChanged', 'activityTimesChanged', 'activityUpdated'], participant: ['activityTimesChanged', 'activityUpdated'], elsewhere: [], user: [] });
      expect(got.participant.find((f) => f.type === 'activityTimesChanged')!.data).toEqual({ activityId: a.id, startDate: '2026-12-01T00:00:00.000Z' });
      expect(got.manager.find((f) => f.type === 'activityChanged')!.data).toEqual({ activity: changed });

      // documents and archiving are updates too
      const f = await cM.c.upload('r.md', 'r');
      await cM.c.call(ops.setActivityDocuments, { params: { idOrSlug: a.id, kind: 'rules' }, body: { documents: [{ language: 'en', title: 'R', fileId: f.id }] } });
      await archive(cM.c, a.id, true);
      got = await settle();
      expect(typesOf(got)).toMatchObject({ participant: ['activityUpdated', 'activityUpdated'], elsewhere: [], user: [] });
    });

    it('unpublishing tells those who saw it that it is gone, and nothing of its series; publishing opens them with their problems', async () => {
      const a = await create(cM.c);
      await j.grant(cP.u.id, 'participant', a.id);
      const s = await addSeries(a.id, { startDate: '2026-01-01T00:00:00.000Z', isOpen: true, openedAt: '2026-01-01T00:00:00.000Z' });
      const task = await assign(a.id, s, { name: 'Task A' });
      await settle();

      await publish(cM.c, a.id, false);
      let got = await settle();
      expect(typesOf(got)).toEqual({
        admin: ['activityChanged', 'activityDeleted', 'activityUpdated', 'managerSeriesChanged'],
        manager: ['activityChanged', 'activityDeleted', 'activityUpdated', 'managerSeriesChanged'],
        participant: ['activityDeleted'],
        elsewhere: [],
        user: [],
      });
      expect(got.participant[0]!.data).toEqual({ activityId: a.id });
      expect(got.manager.find((f) => f.type === 'managerSeriesChanged')!.data).toEqual({ activityId: a.id, seriesId: s });

      await publish(cM.c, a.id, true);
      got = await settle();
      expect(typesOf(got)).toEqual({
        admin: ['activityChanged', 'activityCreated', 'activityUpdated', 'managerSeriesChanged', 'seriesChanged'],
        manager: ['activityChanged', 'activityCreated', 'activityUpdated', 'managerSeriesChanged', 'seriesChanged'],
        participant: ['activityCreated', 'activityUpdated', 'seriesChanged'],
        elsewhere: [],
        user: [],
      });
      const opened = got.participant.find((f) => f.type === 'seriesChanged')!.data as { change: string; series: { id: string; isOpen: boolean; problems: { id: string; name: string }[] } };
      expect(opened).toMatchObject({ activityId: a.id, change: 'opened', series: { id: s, isOpen: true } });
      expect(opened.series.problems.map((p) => [p.id, p.name])).toEqual([[task.id, 'Task A']]);
    });

    it('deleting tells those who could see it, judged before the grants went', async () => {
      const a = await create(cM.c);
      await j.grant(cP.u.id, 'participant', a.id);
      await settle();
      await admin.call(ops.deleteActivity, { params: { idOrSlug: a.id } });
      const got = await settle();
      expect(typesOf(got)).toEqual({
        admin: ['activityChanged', 'activityDeleted'],
        manager: ['activityChanged', 'activityDeleted'],
        participant: ['activityDeleted'],
        elsewhere: [],
        user: [],
      });
      expect(got.manager.find((f) => f.type === 'activityChanged')!.data).toEqual({ deletedId: a.id });
    });

    it('a refused write tells nobody anything', async () => {
      const a = await create(cM.c);
      await settle();
      await refusedWith(update(cP.c, a, { name: 'x' }), 404, 'not_found');
      await refusedWith(update(cM.c, { id: a.id, slug: 'other' }, { name: 'x' }), 409, 'activity.slug.immutable');
      expect(typesOf(await settle())).toEqual({ admin: [], manager: [], participant: [], elsewhere: [], user: [] });
    });
  });
});
