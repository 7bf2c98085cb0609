import { describe, expect, it } from 'vitest';
import { T0, UNKNOWN_UUID, at, only } from './series-fixtures.js';
import { clock, w, M, P, MB, U, heard, changes, world, create, list, update, shift, pause, resume, row, useSeriesWorld } from './support/series.js';

/**
 * The managers' side of series over real HTTP (decisions §5, §7): editing, shifting, pausing and
 * resuming series, who may do each, and which events reach whom. Shared world in support/series.ts.
 */

useSeriesWorld();

describe('PUT /series/{seriesId}', () => {
  it('changes what is given, keeps what is absent, clears what is null', async () => {
    const a = await world();
    const s = await create(M.c, a.id, { startDate: at(60), endDate: at(120), importance: 5, addressRules: [{ network: '10.0.0.1' }], runnerTags: ['gpu'] });
    const u = await update(M.c, s.id, { name: 'Renamed', endDate: null, importance: 2, runnerTags: [] });
    expect(u).toEqual({ ...s, name: 'Renamed', endDate: undefined, importance: 2, runnerTags: [] });
    expect(u).not.toHaveProperty('endDate');
    expect(await update(M.c, s.id, {})).toEqual(u);
    expect((await list(M.c, a.id))[0]).toEqual(u);
  });

  it('renames the slug unless another series of the activity has it; the same slug in another case is fine', async () => {
    const a = await world();
    const s1 = await create(M.c, a.id, { slug: 'first' });
    await create(M.c, a.id, { slug: 'second' });
    await w.refused(update(M.c, s1.id, { slug: 'SECOND' }), 409, 'series.slug.taken');
    expect((await update(M.c, s1.id, { slug: 'First' })).slug).toBe('First');
    expect((await update(M.c, s1.id, { slug: 'third' })).slug).toBe('third');
    // the old slug is free again
    expect((await create(M.c, a.id, { slug: 'first' })).slug).toBe('first');
  });

  it('opens and closes at once by the new dates, and tells members of the change', async () => {
    const a = await world();
    const s = await create(M.c, a.id, { startDate: at(60) });
    await heard();

    // moving the start: members hear the series was rescheduled
    let u = await update(M.c, s.id, { startDate: at(30) });
    expect(u.isOpen).toBe(false);
    let got = await heard();
    expect(only(got.P, 'seriesChanged')).toEqual([{ activityId: a.id, change: 'rescheduled', series: { id: s.id, slug: s.slug, name: s.name, order: 1, startDate: at(30), isOpen: false } }]);
    expect(only(got.M, 'managerSeriesChanged')).toEqual([{ activityId: a.id, seriesId: s.id }]);

    // a start now past opens it: that is what members hear instead
    u = await update(M.c, s.id, { startDate: at(-5), endDate: at(30) });
    expect(u.isOpen).toBe(true);
    expect((await row(s.id))!.openedAt).toBe(T0);
    got = await heard();
    expect(changes(got.P)).toEqual(['opened']);

    // an end now past closes it
    u = await update(M.c, s.id, { endDate: at(-1) });
    expect(u.isOpen).toBe(false);
    got = await heard();
    expect(changes(got.P)).toEqual(['closed']);

    // a change members do not see reaches managers only
    await update(M.c, s.id, { name: 'Quietly renamed', importance: 7, rankingFreezeAt: at(-3) });
    got = await heard();
    expect(changes(got.P)).toEqual([]);
    expect(only(got.M, 'managerSeriesChanged')).toEqual([{ activityId: a.id, seriesId: s.id }]);
    for (const k of ['MB', 'PB', 'U'] as const) expect(got[k]).toEqual([]);
  });

  it('refuses an end before the start as it would be stored, an archived activity, and those not managing it', async () => {
    const a = await world();
    const s = await create(M.c, a.id, { startDate: at(60), endDate: at(120) });
    await w.refused(update(M.c, s.id, { endDate: at(30) }), 422, 'validation_failed');
    await w.refused(update(M.c, s.id, { startDate: at(150) }), 422, 'validation_failed');
    await w.refused(update(P.c, s.id, { name: 'x' }), 403, 'forbidden');
    await w.refused(update(U.c, s.id, { name: 'x' }), 404, 'not_found');
    await w.refused(update(MB.c, s.id, { name: 'x' }), 404, 'not_found');
    await w.refused(update(M.c, UNKNOWN_UUID, { name: 'x' }), 404, 'not_found');
    await w.refusedRaw(M.c, 'PUT', '/series/not-a-uuid', { name: 'x' }, 404, 'not_found');
    await w.archived(a.id, true);
    await w.refused(update(M.c, s.id, { name: 'x' }), 409, 'activity.archived');
  });

  it('answers malformed input with 422 and changes nothing', async () => {
    const a = await world();
    const s = await create(M.c, a.id);
    for (const body of [{ slug: '' }, { name: 42 }, { startDate: '22/11/2026' }, { importanceScope: 'all' }, { addressRules: {} }, { revealProblemCount: 'no' }, { importance: -1 }]) {
      await w.refusedRaw(M.c, 'PUT', `/series/${s.id}`, body, 422, 'validation_failed');
    }
  });
});

describe('POST /series/{seriesId}/shift', () => {
  it('moves every date by the minutes, forwards and back, and leaves absent dates absent', async () => {
    const a = await world();
    const dates = { startDate: at(60), endDate: at(120), rankingFreezeAt: at(100), rankingRevealAt: at(130), rankingVisibleFrom: at(60), rankingVisibleTo: at(200) };
    const s = await create(M.c, a.id, dates);
    const later = await shift(M.c, s.id, 90);
    expect(later).toEqual({ ...s, startDate: at(150), endDate: at(210), rankingFreezeAt: at(190), rankingRevealAt: at(220), rankingVisibleFrom: at(150), rankingVisibleTo: at(290) });
    expect(await shift(M.c, s.id, -90)).toEqual(s);

    const undated = await create(M.c, a.id, { endDate: at(30) });
    const moved = await shift(M.c, undated.id, 10);
    expect(moved.endDate).toBe(at(40));
    expect(moved).not.toHaveProperty('startDate');
  });

  it('opens or closes by the moved dates, hides the problems again when moved before its start, and tells members', async () => {
    const a = await world();
    const s = await create(M.c, a.id, { startDate: at(10), endDate: at(70) });
    await heard();

    let u = await shift(M.c, s.id, -20); // start 10 minutes ago
    expect(u.isOpen).toBe(true);
    expect((await row(s.id))!.openedAt).toBe(T0);
    let got = await heard();
    expect(changes(got.P)).toEqual(['opened']);

    u = await shift(M.c, s.id, 5); // still open, ends later: rescheduled
    expect(u.isOpen).toBe(true);
    got = await heard();
    expect(changes(got.P)).toEqual(['rescheduled']);

    u = await shift(M.c, s.id, 60); // starts in the future again: closed, as if it never opened
    expect(u.isOpen).toBe(false);
    expect((await row(s.id))!.openedAt).toBeNull();
    got = await heard();
    expect(changes(got.P)).toEqual(['closed']);
    expect(only(got.M, 'managerSeriesChanged')).toEqual([{ activityId: a.id, seriesId: s.id }]);
    for (const k of ['MB', 'PB', 'U'] as const) expect(got[k]).toEqual([]);
  });

  it('leaves the pause where it was', async () => {
    const a = await world();
    const s = await create(M.c, a.id, { startDate: at(-10), endDate: at(60) });
    const paused = await pause(M.c, s.id);
    const u = await shift(M.c, s.id, 15);
    expect(u).toMatchObject({ pausedAt: paused.pausedAt, isOpen: false, startDate: at(5), endDate: at(75) });
  });

  it('refuses bad minutes, an archived activity and those not managing it', async () => {
    const a = await world();
    const s = await create(M.c, a.id, { startDate: at(60) });
    for (const body of [{}, { minutes: 1.5 }, { minutes: '10' }, { minutes: 525_601 }]) {
      await w.refusedRaw(M.c, 'POST', `/series/${s.id}/shift`, body, 422, 'validation_failed');
    }
    await w.refused(shift(P.c, s.id, 5), 403, 'forbidden');
    await w.refused(shift(U.c, s.id, 5), 404, 'not_found');
    await w.refused(shift(MB.c, s.id, 5), 404, 'not_found');
    await w.refused(shift(M.c, UNKNOWN_UUID, 5), 404, 'not_found');
    await w.archived(a.id, true);
    await w.refused(shift(M.c, s.id, 5), 409, 'activity.archived');
  });
});

describe('POST /series/{seriesId}/pause and /resume', () => {
  it('pauses now, closing the series and hiding its problems when asked; a second pause is refused', async () => {
    const a = await world();
    const s = await create(M.c, a.id, { startDate: at(-10), endDate: at(60) });
    await heard();
    clock.advance(60);
    const paused = await pause(M.c, s.id, true);
    expect(paused).toEqual({ ...s, pausedAt: at(1), isOpen: false, hideProblemsWhilePaused: true });
    const got = await heard();
    expect(only(got.P, 'seriesChanged')).toEqual([
      { activityId: a.id, change: 'paused', series: { id: s.id, slug: s.slug, name: s.name, order: 1, startDate: at(-10), endDate: at(60), isOpen: false, pausedAt: at(1) } },
    ]);
    expect(only(got.M, 'managerSeriesChanged')).toEqual([{ activityId: a.id, seriesId: s.id }]);
    for (const k of ['MB', 'PB', 'U'] as const) expect(got[k]).toEqual([]);
    await w.refused(pause(M.c, s.id), 409, 'series.alreadyPaused');
  });

  it('resumes as it was, reopening the series; a resume without a pause is refused', async () => {
    const a = await world();
    const s = await create(M.c, a.id, { startDate: at(-10), endDate: at(60), rankingFreezeAt: at(50) });
    await pause(M.c, s.id, true);
    await heard();
    clock.advance(30 * 60);
    const resumed = await resume(M.c, s.id, false);
    expect(resumed).toEqual(s);
    const got = await heard();
    expect(changes(got.P)).toEqual(['resumed']);
    expect(only(got.M, 'managerSeriesChanged')).toEqual([{ activityId: a.id, seriesId: s.id }]);
    await w.refused(resume(M.c, s.id), 409, 'series.notPaused');
  });

  it('with extendEnd pushes the end and the later ranking dates back by the time paused', async () => {
    const a = await world();
    const dates = { startDate: at(-10), endDate: at(60), rankingFreezeAt: at(50), rankingRevealAt: at(90), rankingVisibleFrom: at(-10), rankingVisibleTo: at(120) };
    const s = await create(M.c, a.id, dates);
    await pause(M.c, s.id);
    clock.advance(25 * 60);
    const resumed = await resume(M.c, s.id, true);
    expect(resumed).toEqual({ ...s, endDate: at(85), rankingFreezeAt: at(75), rankingRevealAt: at(115), rankingVisibleTo: at(145) });
  });

  it('stays closed when the end passed during the pause, and announces the first opening as opened', async () => {
    const a = await world();
    const ends = await create(M.c, a.id, { startDate: at(-10), endDate: at(10) });
    const early = await create(M.c, a.id, { startDate: at(5), endDate: at(60) });
    await pause(M.c, ends.id);
    await pause(M.c, early.id);
    await heard();
    clock.advance(20 * 60);
    expect((await resume(M.c, ends.id, false)).isOpen).toBe(false);
    expect(changes((await heard()).P)).toEqual(['resumed']);
    // paused before it ever opened: the resume is its first opening, which carries the problems
    expect((await resume(M.c, early.id, false)).isOpen).toBe(true);
    const got = await heard();
    expect(only(got.P, 'seriesChanged')).toEqual([expect.objectContaining({ change: 'opened', series: expect.objectContaining({ problems: [] }) })]);
  });

  it('pauses and resumes silently for members of an unpublished activity', async () => {
    const a = await world();
    await w.published(a.id, false);
    const s = await create(M.c, a.id, { startDate: at(-10) });
    await heard();
    await pause(M.c, s.id);
    await resume(M.c, s.id);
    const got = await heard();
    expect(changes(got.P)).toEqual([]);
    expect(changes(got.M)).toEqual([]);
    expect(only(got.M, 'managerSeriesChanged')).toHaveLength(2);
  });

  it('refuses malformed bodies, an archived activity and those not managing it', async () => {
    const a = await world();
    const s = await create(M.c, a.id);
    for (const body of [{}, { hideProblems: 'yes' }, { hideProblems: null }]) await w.refusedRaw(M.c, 'POST', `/series/${s.id}/pause`, body, 422, 'validation_failed');
    for (const body of [{}, { extendEnd: 1 }]) await w.refusedRaw(M.c, 'POST', `/series/${s.id}/resume`, body, 422, 'validation_failed');
    for (const [c, status, code] of [
      [P.c, 403, 'forbidden'],
      [U.c, 404, 'not_found'],
      [MB.c, 404, 'not_found'],
    ] as const) {
      await w.refused(pause(c, s.id), status, code);
      await w.refused(resume(c, s.id), status, code);
    }
    await pause(M.c, s.id);
    await w.archived(a.id, true);
    await w.refused(resume(M.c, s.id), 409, 'activity.archived');
    await w.archived(a.id, false);
    await resume(M.c, s.id);
    await w.archived(a.id, true);
    await w.refused(pause(M.c, s.id), 409, 'activity.archived');
  });
});
