import { describe, expect, it } from 'vitest';
import { ops, type Series } from '@judge/contract';
import { T0, UNKNOWN_UUID, at, only } from './series-fixtures.js';
import { w, M, P, MB, PB, U, heard, changes, world, create, list, row, useSeriesWorld } from './support/series.js';

/**
 * The managers' side of series over real HTTP (decisions §5, §7): creating and listing series, who
 * may do each, and which events reach whom. Shared world in support/series.ts.
 */

useSeriesWorld();

describe('POST /activities/{idOrSlug}/series', () => {
  it('adds a series last with every member stored, answers 201 with Location, and opens it at once', async () => {
    const a = await world();
    await heard();
    const res = await M.c.send(ops.createSeries, { params: { idOrSlug: a.slug }, body: { slug: 'week-1', name: 'Week 1' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/v1/manager/activities/${a.id}/series`);
    const first = (await res.json()) as Series;
    expect(first).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/),
      activityId: a.id,
      slug: 'week-1',
      name: 'Week 1',
      order: 1,
      isOpen: true, // published, no dates: open now
      hideProblemsWhilePaused: false,
      revealProblemCount: true,
      importance: 1,
      importanceScope: 'activity',
      addressRules: [],
      restrictionsEnabled: false,
      runnerTags: [],
      matchingRunners: 0,
      problems: [],
    });

    const full = {
      slug: 'Week-2',
      name: 'Week 2',
      startDate: '2026-11-22T09:00:00+01:00', // T0, written with an offset
      endDate: at(60),
      revealProblemCount: false,
      rankingFreezeAt: at(40),
      rankingRevealAt: at(90),
      rankingVisibleFrom: at(0),
      rankingVisibleTo: at(120),
      importance: 3,
      importanceScope: 'none' as const,
      addressRules: [{ network: '10.0.0.0/8', note: 'lab' }, { network: '2001:db8::/32' }],
      restrictionsEnabled: true,
      runnerTags: ['gpu', 'gpu', 'x86'],
    };
    const second = await create(M.c, a.id, full);
    expect(second).toEqual({
      ...full,
      id: expect.any(String),
      activityId: a.id,
      startDate: T0,
      order: 2,
      isOpen: true,
      hideProblemsWhilePaused: false,
      runnerTags: ['gpu', 'x86'],
      matchingRunners: 0,
      problems: [],
    });
    expect(await list(M.c, a.id)).toEqual([first, second]);

    const got = await heard();
    // members hear of each opening; the managers of the activity of every write
    expect(changes(got.P)).toEqual(['opened', 'opened']);
    expect(only(got.P, 'seriesChanged')[0]).toEqual({
      activityId: a.id,
      change: 'opened',
      series: { id: first.id, slug: 'week-1', name: 'Week 1', order: 1, isOpen: true, problems: [] },
    });
    expect(only(got.M, 'managerSeriesChanged')).toEqual([
      { activityId: a.id, seriesId: first.id },
      { activityId: a.id, seriesId: second.id },
    ]);
    expect(changes(got.M)).toEqual(['opened', 'opened']);
    expect(only(got.P, 'managerSeriesChanged')).toEqual([]);
    expect(got.admin.map((f) => f.type).sort()).toEqual(['managerSeriesChanged', 'managerSeriesChanged', 'seriesChanged', 'seriesChanged']);
    for (const k of ['MB', 'PB', 'U'] as const) expect(got[k]).toEqual([]);
  });

  it('opens only what its dates allow, and nothing in an unpublished activity', async () => {
    const a = await world();
    await heard();
    const future = await create(M.c, a.id, { startDate: at(30) });
    const ended = await create(M.c, a.id, { startDate: at(-60), endDate: at(-1) });
    const running = await create(M.c, a.id, { startDate: at(-60), endDate: at(1) });
    expect([future.isOpen, ended.isOpen, running.isOpen]).toEqual([false, false, true]);
    let got = await heard();
    expect(changes(got.P)).toEqual(['opened']);
    expect(only(got.M, 'managerSeriesChanged')).toHaveLength(3);

    const hidden = await world();
    await w.published(hidden.id, false);
    await heard();
    const s = await create(M.c, hidden.id, { startDate: at(-60) });
    expect(s.isOpen).toBe(false);
    expect((await row(s.id))!.openedAt).toBeNull();
    got = await heard();
    expect(changes(got.P)).toEqual([]);
    expect(changes(got.M)).toEqual([]);
    expect(only(got.M, 'managerSeriesChanged')).toEqual([{ activityId: hidden.id, seriesId: s.id }]);
  });

  it('refuses a slug the activity already has, whatever its case; another activity may use it', async () => {
    const a = await world();
    await create(M.c, a.id, { slug: 'Round' });
    await w.refused(create(M.c, a.id, { slug: 'rOUND' }), 409, 'series.slug.taken');
    const other = await world();
    expect((await create(M.c, other.id, { slug: 'round' })).slug).toBe('round');
  });

  it('refuses an archived activity, an end before the start, and unknown activities', async () => {
    const a = await world();
    await w.refused(create(M.c, a.id, { startDate: at(10), endDate: at(5) }), 422, 'validation_failed');
    await w.refused(create(M.c, a.id, { rankingFreezeAt: at(10), rankingRevealAt: at(5) }), 422, 'validation_failed');
    await w.archived(a.id, true);
    await w.refused(create(M.c, a.id), 409, 'activity.archived');
    await w.refused(create(M.c, 'no-such-activity'), 404, 'not_found');
    await w.refused(create(M.c, UNKNOWN_UUID), 404, 'not_found');
  });

  it('is for holders of activity:update there: not a participant, a plain user or the manager of another activity', async () => {
    const a = await world();
    await w.refused(create(P.c, a.id), 403, 'forbidden');
    // a closed activity does not exist for those outside it
    await w.refused(create(U.c, a.id), 404, 'not_found');
    await w.refused(create(MB.c, a.id), 404, 'not_found');
    await w.refused(create(PB.c, a.id), 404, 'not_found');
    // one that anyone may join is seen, but still not theirs to change
    const open = await world({ joinPolicy: 'open', unlisted: false });
    await w.refused(create(U.c, open.id), 403, 'forbidden');
    await w.refused(create(MB.c, open.id), 403, 'forbidden');
    expect((await create(w.admin, a.id)).activityId).toBe(a.id);
  });

  it('answers malformed input with 4xx problem+json and stores nothing', async () => {
    const a = await world();
    const path = `/activities/${a.id}/series`;
    const bad: [unknown, string][] = [
      [{ name: 'No slug' }, 'slug'],
      [{ slug: 'a b', name: 'x' }, 'slug'],
      [{ slug: 'ok', name: '' }, 'name'],
      [{ slug: 'ok', name: 'x', importance: '2' }, 'importance'],
      [{ slug: 'ok', name: 'x', importance: 1.5 }, 'importance'],
      [{ slug: 'ok', name: 'x', importanceScope: 'maybe' }, 'importanceScope'],
      [{ slug: 'ok', name: 'x', startDate: 'tomorrow' }, 'startDate'],
      [{ slug: 'ok', name: 'x', endDate: '2026-02-30T00:00:00Z' }, 'endDate'],
      [{ slug: 'ok', name: 'x', addressRules: [{ network: 'anywhere' }] }, 'addressRules.0.network'],
      [{ slug: 'ok', name: 'x', runnerTags: 'gpu' }, 'runnerTags'],
      [{ slug: 'ok', name: 'x', restrictionsEnabled: 'yes' }, 'restrictionsEnabled'],
    ];
    for (const [body, member] of bad) {
      const pb = await w.refusedRaw(M.c, 'POST', path, body, 422, 'validation_failed');
      expect(Object.keys(pb.errors ?? {}).join(' ')).toContain(member);
    }
    await w.refusedRaw(M.c, 'POST', path, '{"slug": "ok",', 400, 'request.malformed');
    await w.refusedRaw(M.c, 'POST', path, '["slug"]', 422, 'validation_failed');
  });
});

describe('GET /manager/activities/{idOrSlug}/series', () => {
  it('lists the series in order, by id or slug, and an empty list for an activity without any', async () => {
    const a = await world();
    expect(await list(M.c, a.id)).toEqual([]);
    const s1 = await create(M.c, a.id);
    const s2 = await create(M.c, a.id, { startDate: at(60) });
    expect((await list(M.c, a.slug.toUpperCase())).map((s) => [s.id, s.order])).toEqual([
      [s1.id, 1],
      [s2.id, 2],
    ]);
    expect(await list(w.admin, a.id)).toEqual(await list(M.c, a.id));
  });

  it('is for managers of the activity only: to anyone else the activity does not exist here', async () => {
    const a = await world();
    await create(M.c, a.id);
    await w.refused(list(P.c, a.id), 404, 'not_found');
    await w.refused(list(U.c, a.id), 404, 'not_found');
    await w.refused(list(MB.c, a.id), 404, 'not_found');
    await w.refused(list(M.c, 'nothing-here'), 404, 'not_found');
  });
});
