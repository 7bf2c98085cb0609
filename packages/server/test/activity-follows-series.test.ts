import { describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { T0, at, only } from './series-fixtures.js';
import { M, P, clock, create, heard, pause, resume, shift, update, useSeriesWorld, w, world } from './support/series.js';

/**
 * The activity's own start and end follow its series (README "Series and the activity's
 * dates"): a start or end equal to the series' old one moves with it, the range widens to take in
 * every series, and members hear it as they hear any other change of the activity's dates.
 */

useSeriesWorld();

const shown = async (id: string) => {
  const a = await M.c.call(ops.getManagedActivity, { params: { idOrSlug: id } });
  return { startDate: a.startDate, endDate: a.endDate };
};

describe('shifting a series', () => {
  it('moves the activity\'s start and end that were the series\', and tells participants and managers', async () => {
    const a = await world({ startDate: at(60), endDate: at(180) });
    const s = await create(M.c, a.id, { startDate: at(60), endDate: at(180) });
    await heard();
    await shift(M.c, s.id, 30);
    expect(await shown(a.id)).toEqual({ startDate: at(90), endDate: at(210) });
    const got = await heard();
    expect(only(got.P, 'activityTimesChanged')).toEqual([{ activityId: a.id, startDate: at(90), endDate: at(210) }]);
    expect(only(got.P, 'activityUpdated')).toEqual([{ activityId: a.id, slug: a.slug, name: a.name }]);
    expect(only(got.M, 'activityChanged')).toEqual([{ activity: expect.objectContaining({ id: a.id, startDate: at(90), endDate: at(210) }) }]);
    // someone outside the activity hears nothing of it
    expect(only(got.U, 'activityTimesChanged')).toEqual([]);
    // and back
    await shift(M.c, s.id, -30);
    expect(await shown(a.id)).toEqual({ startDate: at(60), endDate: at(180) });
  });

  it('leaves an activity range that is wider than the series where it is, and says nothing of the activity', async () => {
    const a = await world({ startDate: at(0), endDate: at(300) });
    const s = await create(M.c, a.id, { startDate: at(60), endDate: at(120) });
    await heard();
    await shift(M.c, s.id, 30);
    expect(await shown(a.id)).toEqual({ startDate: at(0), endDate: at(300) });
    const got = await heard();
    expect(only(got.P, 'activityTimesChanged')).toEqual([]);
    expect(only(got.M, 'activityChanged')).toEqual([]);
  });

  it('widens the activity when the series moves past its end, never narrower than the series', async () => {
    const a = await world({ startDate: at(0), endDate: at(120) });
    const s = await create(M.c, a.id, { startDate: at(60), endDate: at(100) });
    await shift(M.c, s.id, 60);
    expect(await shown(a.id)).toEqual({ startDate: at(0), endDate: at(160) });
    // widened, the end is the series' end and moves with it from now on
    await shift(M.c, s.id, -110);
    expect(await shown(a.id)).toEqual({ startDate: at(0), endDate: at(50) });
    // a start before the activity's pulls the activity's start along
    await shift(M.c, s.id, -20);
    expect(await shown(a.id)).toEqual({ startDate: at(-10), endDate: at(30) });
  });

  it('keeps the start another series still needs', async () => {
    const a = await world({ startDate: at(60), endDate: at(180) });
    const first = await create(M.c, a.id, { startDate: at(60), endDate: at(120) });
    await create(M.c, a.id, { startDate: at(60), endDate: at(180) });
    await shift(M.c, first.id, 30);
    expect(await shown(a.id)).toEqual({ startDate: at(60), endDate: at(180) });
  });

  it('leaves open dates of the activity open', async () => {
    const a = await world();
    const s = await create(M.c, a.id, { startDate: at(60), endDate: at(120) });
    await shift(M.c, s.id, 30);
    expect(await shown(a.id)).toEqual({ startDate: undefined, endDate: undefined });
  });

  it('changes nothing when refused to a participant', async () => {
    const a = await world({ startDate: at(60), endDate: at(180) });
    const s = await create(M.c, a.id, { startDate: at(60), endDate: at(180) });
    await w.refused(shift(P.c, s.id, 30), 403, 'forbidden');
    expect(await shown(a.id)).toEqual({ startDate: at(60), endDate: at(180) });
  });
});

describe('updating a series', () => {
  it('opening it now by its start moves the activity\'s start with it', async () => {
    const a = await world({ startDate: at(60), endDate: at(180) });
    const s = await create(M.c, a.id, { startDate: at(60), endDate: at(180) });
    const opened = await update(M.c, s.id, { startDate: T0 });
    expect(opened.isOpen).toBe(true);
    expect(await shown(a.id)).toEqual({ startDate: T0, endDate: at(180) });
  });

  it('a series created outside the activity\'s range widens it', async () => {
    const a = await world({ startDate: at(60), endDate: at(120) });
    await create(M.c, a.id, { startDate: at(30), endDate: at(240) });
    expect(await shown(a.id)).toEqual({ startDate: at(30), endDate: at(240) });
  });

  it('a resume that extends the end carries the activity\'s end along', async () => {
    const a = await world({ startDate: at(-10), endDate: at(60) });
    const s = await create(M.c, a.id, { startDate: at(-10), endDate: at(60) });
    await pause(M.c, s.id);
    clock.advance(15 * 60);
    await resume(M.c, s.id, true);
    expect(await shown(a.id)).toEqual({ startDate: at(-10), endDate: at(75) });
  });
});
