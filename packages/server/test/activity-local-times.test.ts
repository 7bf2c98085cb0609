import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ops } from '@judge/contract';
import { activities } from '../src/db/schema.js';
import { M, P, create, j, update, useSeriesWorld, w, world } from './support/series.js';

/**
 * Dates without an offset are read in the activity's time zone: the activity's own, its
 * series', a duplicate's start and its documents' validFrom. An instant with Z or an offset means
 * what it says, as before.
 */

useSeriesWorld();

const managed = (id: string) => M.c.call(ops.getManagedActivity, { params: { idOrSlug: id } });

describe('an activity in Europe/Berlin', () => {
  it('stores a local start on create in the zone of the same request: 19:52 in winter is 18:52Z, in summer 17:52Z', async () => {
    const a = await w.activity({ timeZone: 'Europe/Berlin', startDate: '2026-11-23T19:52:00', endDate: '2027-06-01T19:52' });
    expect(a).toMatchObject({ timeZone: 'Europe/Berlin', startDate: '2026-11-23T18:52:00.000Z', endDate: '2027-06-01T17:52:00.000Z' });
    const [row] = await j.app.deps.tx.read((q) => q.select({ s: activities.startDate, e: activities.endDate }).from(activities).where(eq(activities.id, a.id)));
    expect(row).toEqual({ s: '2026-11-23T18:52:00.000Z', e: '2027-06-01T17:52:00.000Z' });
  });

  it('leaves instants with Z or an offset as they are, and a date alone at midnight UTC', async () => {
    const a = await w.activity({ timeZone: 'Europe/Berlin', startDate: '2026-11-23T19:52:00Z', endDate: '2026-11-24T10:00:00-05:00' });
    expect(a).toMatchObject({ startDate: '2026-11-23T19:52:00.000Z', endDate: '2026-11-24T15:00:00.000Z' });
    const b = await w.activity({ timeZone: 'Europe/Berlin', startDate: '2026-11-23' });
    expect(b.startDate).toBe('2026-11-23T00:00:00.000Z');
  });

  it('reads a local date on update in the zone after the update', async () => {
    const a = await world({ timeZone: 'UTC' });
    const same = await M.c.call(ops.updateActivity, { params: { idOrSlug: a.id }, body: { slug: a.slug, startDate: '2026-11-23T19:52' } });
    expect(same.startDate).toBe('2026-11-23T19:52:00.000Z');
    const moved = await M.c.call(ops.updateActivity, { params: { idOrSlug: a.id }, body: { slug: a.slug, timeZone: 'Asia/Tokyo', startDate: '2026-11-23T19:52' } });
    expect(moved).toMatchObject({ timeZone: 'Asia/Tokyo', startDate: '2026-11-23T10:52:00.000Z' });
    // the zone alone changing leaves stored instants where they are
    const rezoned = await M.c.call(ops.updateActivity, { params: { idOrSlug: a.id }, body: { slug: a.slug, timeZone: 'Europe/Berlin' } });
    expect(rezoned.startDate).toBe('2026-11-23T10:52:00.000Z');
    expect(await managed(a.id)).toEqual(rezoned);
  });

  it('moves a time the spring-forward night skips forward by the gap, and takes the earlier of a time the autumn night repeats', async () => {
    const a = await w.activity({ timeZone: 'Europe/Berlin', startDate: '2026-03-29T02:30', endDate: '2026-10-25T02:30' });
    // 02:30 does not exist on 29 March (02:00 CET jumps to 03:00 CEST): 03:30 CEST
    expect(a.startDate).toBe('2026-03-29T01:30:00.000Z');
    // 02:30 happens twice on 25 October: the first, still CEST
    expect(a.endDate).toBe('2026-10-25T00:30:00.000Z');
  });

  it('refuses a local date whose end precedes its start once both are placed, and a malformed one, changing nothing', async () => {
    const a = await world({ timeZone: 'Europe/Berlin' });
    // 10:30 Berlin is 09:30Z, before a start at 10:00Z
    await w.refused(M.c.call(ops.updateActivity, { params: { idOrSlug: a.id }, body: { slug: a.slug, startDate: '2026-11-23T10:00:00Z', endDate: '2026-11-23T10:30' } }), 422, 'validation_failed');
    await w.refused(M.c.call(ops.updateActivity, { params: { idOrSlug: a.id }, body: { slug: a.slug, startDate: '2026-02-30T10:00' } }), 422, 'validation_failed');
    await w.refused(M.c.call(ops.updateActivity, { params: { idOrSlug: a.id }, body: { slug: a.slug, startDate: 'next monday' } }), 422, 'validation_failed');
    const [row] = await j.app.deps.tx.read((q) => q.select().from(activities).where(eq(activities.id, a.id)));
    expect(row?.startDate).toBeNull();
  });

  it('refuses a participant who sends a local date, changing nothing', async () => {
    const a = await world({ timeZone: 'Europe/Berlin' });
    await w.refused(P.c.call(ops.updateActivity, { params: { idOrSlug: a.id }, body: { slug: a.slug, startDate: '2026-11-23T19:52' } }), 403, 'forbidden');
  });

  it('places a duplicate\'s local start in the source\'s zone', async () => {
    const a = await world({ timeZone: 'Europe/Berlin', startDate: '2026-11-23T09:00:00Z' });
    const copy = await w.admin.call(ops.duplicateActivity, { params: { id: a.id }, body: { slug: w.uniq('copy'), startsAt: '2026-12-07T10:00' } });
    expect(copy).toMatchObject({ timeZone: 'Europe/Berlin', startDate: '2026-12-07T09:00:00.000Z' });
  });
});

describe('series of an activity in Europe/Berlin', () => {
  it('reads every local date of a created series in the activity\'s zone', async () => {
    const a = await world({ timeZone: 'Europe/Berlin' });
    const s = await create(M.c, a.id, {
      startDate: '2026-11-23T19:00',
      endDate: '2026-11-23T22:00:00',
      rankingFreezeAt: '2026-11-23T21:00',
      rankingRevealAt: '2026-11-23T22:30:00.000',
      rankingVisibleFrom: '2026-11-23T19:00',
      rankingVisibleTo: '2026-11-30T19:00Z',
    });
    expect(s).toMatchObject({
      startDate: '2026-11-23T18:00:00.000Z',
      endDate: '2026-11-23T21:00:00.000Z',
      rankingFreezeAt: '2026-11-23T20:00:00.000Z',
      rankingRevealAt: '2026-11-23T21:30:00.000Z',
      rankingVisibleFrom: '2026-11-23T18:00:00.000Z',
      rankingVisibleTo: '2026-11-30T19:00:00.000Z',
    });
  });

  it('reads a local date of an update in the activity\'s zone, summer time included', async () => {
    const a = await world({ timeZone: 'Europe/Berlin' });
    const s = await create(M.c, a.id, { startDate: '2026-11-23T18:00:00Z' });
    const u = await update(M.c, s.id, { endDate: '2027-07-01T12:00' });
    expect(u).toMatchObject({ startDate: '2026-11-23T18:00:00.000Z', endDate: '2027-07-01T10:00:00.000Z' });
    // a local end before the start once placed is refused
    await w.refused(update(M.c, s.id, { endDate: '2026-11-23T18:30' }), 422, 'validation_failed');
  });

  it('moves a series time the spring-forward night skips forward by the gap', async () => {
    const a = await world({ timeZone: 'Europe/Berlin' });
    const s = await create(M.c, a.id, { startDate: '2026-03-29T02:15' });
    expect(s.startDate).toBe('2026-03-29T01:15:00.000Z');
  });
});
