import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { ops, type Activity, type OperationInput, type Series } from '@judge/contract';
import { series as seriesTable } from '../src/db/schema.js';
import { at, only } from './series-fixtures.js';
import { changes, clock, heard, j, M, P, PARTIES, useSeriesWorld, w, type Heard } from './support/series.js';
import { sleep } from './support/wait.js';

/**
 * The series scheduler driven by a fake clock (decisions §7): `tick(now)` opens a series at its start
 * and closes it at its end, only in published, unarchived activities; pause, resume and shift move
 * what it does; and each transition is told exactly once, to the members and managers of that
 * activity and nobody else (proven with a barrier event on every socket).
 */

const t = (minutes: number) => at(minutes);
/** Activities of earlier tests: archived before each test, so that the scheduler leaves their series alone. */
const earlier: string[] = [];

/** Members and managers of the activity heard exactly `change` once; nobody else heard anything. */
function toldOnce(got: Heard, activityId: string, seriesId: string, change: string): void {
  for (const k of ['P', 'M', 'admin'] as const) {
    expect(only(got[k], 'seriesChanged')).toEqual([expect.objectContaining({ activityId, change, series: expect.objectContaining({ id: seriesId }) })]);
  }
  for (const k of ['M', 'admin'] as const) expect(only(got[k], 'managerSeriesChanged')).toEqual([{ activityId, seriesId }]);
  expect(only(got.P, 'managerSeriesChanged')).toEqual([]);
  for (const k of ['MB', 'PB', 'U'] as const) expect(got[k]).toEqual([]);
}

const tick = (minutes: number) => j.app.scheduler.tick(new Date(t(minutes)));
const row = async (id: string) => (await j.app.deps.tx.read((q) => q.select().from(seriesTable).where(eq(seriesTable.id, id))))[0]!;

async function world(): Promise<Activity> {
  const a = await w.activity();
  earlier.push(a.id);
  await j.grant(M.u.id, 'manager', a.id);
  await j.grant(P.u.id, 'participant', a.id);
  return a;
}

const create = (activityId: string, body: Partial<OperationInput<typeof ops.createSeries>['body']> = {}): Promise<Series> =>
  M.c.call(ops.createSeries, { params: { idOrSlug: activityId }, body: { slug: w.uniq('s'), name: 'Week', ...body } });
const isOpen = async (activityId: string, seriesId: string) =>
  (await M.c.call(ops.listManagedSeries, { params: { idOrSlug: activityId } })).find((s) => s.id === seriesId)!.isOpen;

// M, P, MB, PB and U (support/series.ts), M an author too: a test attaches a problem of M's
useSeriesWorld({ managerIsAuthor: true });
beforeEach(async () => {
  for (const id of earlier.splice(0)) await w.archived(id, true);
  await heard();
});

describe('the series scheduler', () => {
  it('opens a series at its start and closes it at its end, telling each transition once', async () => {
    const a = await world();
    const s = await create(a.id, { startDate: t(10), endDate: t(20) });
    const { problem } = await w.problem(M.c, { name: 'Hidden until opened' });
    const withProblem = await M.c.call(ops.attachProblem, { params: { seriesId: s.id }, body: { problemId: problem.id, slug: w.uniq('task') } });
    await heard();

    expect(await tick(0)).toEqual([]);
    expect(await tick(9.99)).toEqual([]);
    expect(await isOpen(a.id, s.id)).toBe(false);
    expect(await tick(10)).toEqual([{ activityId: a.id, seriesId: s.id, change: 'opened' }]);
    expect(await tick(10)).toEqual([]);
    expect(await tick(15)).toEqual([]);
    expect(await isOpen(a.id, s.id)).toBe(true);
    expect((await row(s.id)).openedAt).toBe(t(10));
    let got = await heard();
    toldOnce(got, a.id, s.id, 'opened');
    // the opening carries the problems withheld until then
    expect(only(got.P, 'seriesChanged')[0]).toEqual({
      activityId: a.id,
      change: 'opened',
      series: {
        id: s.id,
        slug: s.slug,
        name: 'Week',
        order: 1,
        startDate: t(10),
        endDate: t(20),
        isOpen: true,
        problems: [{ id: withProblem.problems[0]!.id, slug: withProblem.problems[0]!.slug, name: 'Hidden until opened', order: 1 }],
      },
    });

    expect(await tick(19.99)).toEqual([]);
    expect(await tick(20)).toEqual([{ activityId: a.id, seriesId: s.id, change: 'closed' }]);
    expect(await tick(21)).toEqual([]);
    expect(await tick(600)).toEqual([]);
    expect(await isOpen(a.id, s.id)).toBe(false);
    // it opened once: the closing does not forget that
    expect((await row(s.id)).openedAt).toBe(t(10));
    got = await heard();
    toldOnce(got, a.id, s.id, 'closed');
    expect(only(got.P, 'seriesChanged')[0]).not.toHaveProperty('problems');
    expect((only(got.P, 'seriesChanged')[0] as { series: object }).series).not.toHaveProperty('problems');
  });

  it('handles many series and activities in one tick, each once', async () => {
    const a1 = await world();
    const a2 = await world();
    const s1 = await create(a1.id, { startDate: t(5) });
    const s2 = await create(a1.id, { startDate: t(5), endDate: t(8) });
    const s3 = await create(a2.id, { startDate: t(1) });
    const ends = await create(a2.id, { endDate: t(3) }); // open from the start
    expect(ends.isOpen).toBe(true);
    await heard();
    expect(await tick(6)).toEqual(
      expect.arrayContaining([
        { activityId: a1.id, seriesId: s1.id, change: 'opened' },
        { activityId: a1.id, seriesId: s2.id, change: 'opened' },
        { activityId: a2.id, seriesId: s3.id, change: 'opened' },
        { activityId: a2.id, seriesId: ends.id, change: 'closed' },
      ]),
    );
    expect(await tick(6)).toEqual([]);
    expect(await tick(9)).toEqual([{ activityId: a1.id, seriesId: s2.id, change: 'closed' }]);
    const got = await heard();
    expect(changes(got.P).sort()).toEqual(['closed', 'closed', 'opened', 'opened', 'opened']);
    expect(only(got.M, 'managerSeriesChanged')).toHaveLength(5);
    for (const k of ['MB', 'PB', 'U'] as const) expect(got[k]).toEqual([]);
  });

  it('never opens a series of an unpublished activity; publishing opens it at once, unpublishing closes it', async () => {
    const a = await world();
    await w.published(a.id, false);
    const s = await create(a.id, { startDate: t(10), endDate: t(60) });
    await heard();
    expect(await tick(10)).toEqual([]);
    expect(await tick(30)).toEqual([]);
    expect(await isOpen(a.id, s.id)).toBe(false);
    expect((await row(s.id)).openedAt).toBeNull();
    let got = await heard();
    for (const k of PARTIES) expect(changes(got[k])).toEqual([]);

    clock.set(new Date(t(30)));
    await w.published(a.id, true);
    expect(await isOpen(a.id, s.id)).toBe(true);
    expect(await tick(30)).toEqual([]);
    got = await heard();
    expect(changes(got.P)).toEqual(['opened']);

    await w.published(a.id, false);
    expect(await isOpen(a.id, s.id)).toBe(false);
    expect(await tick(40)).toEqual([]);
  });

  it('leaves the series of an archived activity as they are', async () => {
    const a = await world();
    const s = await create(a.id, { startDate: t(10) });
    await w.archived(a.id, true);
    expect(await tick(20)).toEqual([]);
    expect((await row(s.id)).isOpen).toBe(false);
    await w.archived(a.id, false);
    expect(await tick(20)).toEqual([{ activityId: a.id, seriesId: s.id, change: 'opened' }]);
  });

  it('keeps a paused series closed past its dates; resuming reopens it and the scheduler closes it at the extended end', async () => {
    const a = await world();
    const s = await create(a.id, { startDate: t(0), endDate: t(30) });
    expect(s.isOpen).toBe(true);
    clock.set(new Date(t(10)));
    await M.c.call(ops.pauseSeries, { params: { seriesId: s.id }, body: { hideProblems: true } });
    await heard();
    expect(await tick(15)).toEqual([]);
    expect(await tick(25)).toEqual([]);
    expect((await row(s.id))).toMatchObject({ isOpen: false, pausedAt: t(10) });

    clock.set(new Date(t(25)));
    const resumed = await M.c.call(ops.resumeSeries, { params: { seriesId: s.id }, body: { extendEnd: true } });
    expect(resumed).toMatchObject({ isOpen: true, endDate: t(45) });
    expect(resumed).not.toHaveProperty('pausedAt');
    let got = await heard();
    expect(changes(got.P)).toEqual(['resumed']);

    expect(await tick(30)).toEqual([]); // the old end no longer counts
    expect(await tick(45)).toEqual([{ activityId: a.id, seriesId: s.id, change: 'closed' }]);
    got = await heard();
    toldOnce(got, a.id, s.id, 'closed');
  });

  it('follows a shift: the old dates no longer count, the new ones do', async () => {
    const a = await world();
    const s = await create(a.id, { startDate: t(10), endDate: t(20) });
    const shifted = await M.c.call(ops.shiftSeries, { params: { seriesId: s.id }, body: { minutes: 30 } });
    expect(shifted).toMatchObject({ startDate: t(40), endDate: t(50), isOpen: false });
    await heard();
    expect(await tick(10)).toEqual([]);
    expect(await tick(39)).toEqual([]);
    expect(await tick(40)).toEqual([{ activityId: a.id, seriesId: s.id, change: 'opened' }]);
    toldOnce(await heard(), a.id, s.id, 'opened');

    // shifted back while open so that its end has passed: the write closes it, the scheduler has nothing left to do
    clock.set(new Date(t(45)));
    const back = await M.c.call(ops.shiftSeries, { params: { seriesId: s.id }, body: { minutes: -10 } });
    expect(back).toMatchObject({ startDate: t(30), endDate: t(40), isOpen: false });
    expect(await tick(45)).toEqual([]);
    toldOnce(await heard(), a.id, s.id, 'closed');
  });

  it('runs by itself once started, reading the injected clock, and stops', async () => {
    const a = await world();
    const s = await create(a.id, { startDate: t(5) });
    await heard();
    clock.set(new Date(t(5)));
    j.app.scheduler.start(20);
    try {
      const deadline = Date.now() + 5000;
      while (!(await row(s.id)).isOpen && Date.now() < deadline) await sleep(20);
    } finally {
      j.app.scheduler.stop();
    }
    expect((await row(s.id)).isOpen).toBe(true);
    toldOnce(await heard(), a.id, s.id, 'opened');
  });
});
