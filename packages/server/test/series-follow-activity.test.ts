import { describe, expect, it } from 'vitest';
import { ops, type Activity } from '@judge/contract';
import { T0, at, only } from './series-fixtures.js';
import { M, P, changes, create, heard, list, useSeriesWorld, w, world } from './support/series.js';

/**
 * The series follow their activity's dates (docs/api.md "Series and the activity's dates"):
 * `activities update --end` once moved the activity alone, so the home page said "Ends 5:00" while
 * the series' clock said 4 days. A series start or end equal to the activity's old one moves with
 * it; a series that would then lie outside the activity refuses the update, naming it.
 */

useSeriesWorld();

const updateActivity = (a: Activity, body: { startDate?: string | null; endDate?: string | null; timeZone?: string }) =>
  M.c.call(ops.updateActivity, { params: { idOrSlug: a.id }, body: { slug: a.slug, ...body } });
const datesOf = async (a: Activity) => (await list(M.c, a.id)).map((s) => ({ slug: s.slug, startDate: s.startDate, endDate: s.endDate }));

describe("an activity's new dates", () => {
  it('carry the series that shared its end along, and members hear the series rescheduled', async () => {
    // the walk-through: a 4-day contest after a late start, its end set back to the afternoon
    const a = await world({ startDate: T0, endDate: at(4 * 24 * 60) });
    const s = await create(M.c, a.id, { startDate: T0, endDate: at(4 * 24 * 60) });
    await heard();
    const r = await updateActivity(a, { endDate: at(180) });
    expect(r.endDate).toBe(at(180));
    expect(await datesOf(a)).toEqual([{ slug: s.slug, startDate: T0, endDate: at(180) }]);
    const got = await heard();
    expect(changes(got.P)).toEqual(['rescheduled']);
    expect(only(got.P, 'activityTimesChanged')).toEqual([{ activityId: a.id, startDate: T0, endDate: at(180) }]);
  });

  it('carry a shared start along too, and leave the series that did not share a date where they are', async () => {
    const a = await world({ startDate: at(60), endDate: at(600) });
    const first = await create(M.c, a.id, { startDate: at(60), endDate: at(120) });
    const second = await create(M.c, a.id, { startDate: at(300), endDate: at(360) });
    await updateActivity(a, { startDate: at(90) });
    expect(await datesOf(a)).toEqual([
      { slug: first.slug, startDate: at(90), endDate: at(120) },
      { slug: second.slug, startDate: at(300), endDate: at(360) },
    ]);
  });

  it('are refused when a series would lie outside them, naming it in the activity\'s time, and nothing changes', async () => {
    const a = await world({ startDate: at(0), endDate: at(600), timeZone: 'Europe/Berlin' });
    const late = await create(M.c, a.id, { slug: 'late', startDate: at(300), endDate: at(500) });
    const problem = await w.refused(updateActivity(a, { endDate: at(400) }), 409, 'activity.seriesOutside');
    // T0 is 08:00Z, so 500 minutes later is 16:20Z, 17:20 in Berlin in November
    expect(problem.detail).toContain('the series late ends at 2026-11-22T17:20+01:00, after the activity\'s new end 2026-11-22T15:40+01:00');
    expect(problem.errors?.endDate).toHaveLength(1);
    const early = await w.refused(updateActivity(a, { startDate: at(310) }), 409, 'activity.seriesOutside');
    expect(early.detail).toContain('the series late starts at');
    expect(early.errors?.startDate).toHaveLength(1);
    const shown = await M.c.call(ops.getManagedActivity, { params: { idOrSlug: a.id } });
    expect([shown.startDate, shown.endDate]).toEqual([at(0), at(600)]);
    expect(await datesOf(a)).toEqual([{ slug: late.slug, startDate: at(300), endDate: at(500) }]);
  });

  it('are refused when a shared end would come before the series starts', async () => {
    const a = await world({ startDate: at(0), endDate: at(600) });
    await create(M.c, a.id, { slug: 'tail', startDate: at(300), endDate: at(600) });
    const problem = await w.refused(updateActivity(a, { endDate: at(200) }), 409, 'activity.seriesOutside');
    expect(problem.detail).toContain('the series tail would end at');
  });

  it('bound nothing where they are open, nor are they bounded by an open series date', async () => {
    const a = await world({ startDate: at(0), endDate: at(600) });
    const s = await create(M.c, a.id, { startDate: at(0) });
    await updateActivity(a, { endDate: null });
    await updateActivity(a, { endDate: at(30) });
    expect(await datesOf(a)).toEqual([{ slug: s.slug, startDate: at(0), endDate: undefined }]);
  });

  it('refused to a participant change no series', async () => {
    const a = await world({ startDate: at(0), endDate: at(600) });
    const s = await create(M.c, a.id, { startDate: at(0), endDate: at(600) });
    await w.refused(P.c.call(ops.updateActivity, { params: { idOrSlug: a.id }, body: { slug: a.slug, endDate: at(100) } }), 403, 'forbidden');
    expect(await datesOf(a)).toEqual([{ slug: s.slug, startDate: at(0), endDate: at(600) }]);
  });
});
