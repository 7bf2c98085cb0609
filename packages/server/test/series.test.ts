import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ops, type Activity, type OperationInput, type Series } from '@judge/contract';
import type { EventStream, Frame, JudgeClient } from '@judge/sdk';
import { series as seriesTable } from '../src/db/schema.js';
import { ADMIN_PASSWORD, ManualClock, TestJudge } from './harness.js';
import { T0, UNKNOWN_UUID, World, at, listen, only, type Party } from './series-fixtures.js';

/**
 * Series management over real HTTP and a real SQLite file (CONTRACT §7, §14): create, list, update,
 * shift, pause, resume, delete and reorder; who may do each and who may not; what every refusal
 * leaves untouched; and what members and managers are told. The scheduler is stopped: here only
 * the writes themselves open and close series (scheduler.test.ts drives the clock).
 */

type CreateBody = OperationInput<typeof ops.createSeries>['body'];

const clock = new ManualClock(new Date(T0));
let j: TestJudge;
let w: World;

/** M manages the activities of `world()`, P takes part in them; MB manages B where PB takes part; U is only signed in. */
let M: Party, P: Party, MB: Party, PB: Party, U: Party;
let B: Activity;
let streams: { M: EventStream; P: EventStream; MB: EventStream; PB: EventStream; U: EventStream; admin: EventStream };

const PARTIES = ['M', 'P', 'MB', 'PB', 'U', 'admin'] as const;
type Heard = Record<(typeof PARTIES)[number], Frame[]>;

/** What each party was sent since the last call. */
async function heard(): Promise<Heard> {
  const got = await w.barrier(PARTIES.map((k) => streams[k]));
  return Object.fromEntries(PARTIES.map((k, i) => [k, got[i]!])) as Heard;
}

/** The `change` of every seriesChanged frame. */
const changes = (frames: Frame[]) => only(frames, 'seriesChanged').map((d) => d.change);

/** A fresh published activity that M manages and P takes part in. */
async function world(body: Parameters<World['activity']>[0] = {}): Promise<Activity> {
  const a = await w.activity(body);
  await j.grant(M.u.id, 'manager', a.id);
  await j.grant(P.u.id, 'participant', a.id);
  return a;
}

const create = (c: JudgeClient, activity: string, body: Partial<CreateBody> = {}): Promise<Series> =>
  c.call(ops.createSeries, { params: { idOrSlug: activity }, body: { slug: w.uniq('s'), name: 'Week', ...body } });
const list = (c: JudgeClient, activity: string) => c.call(ops.listManagedSeries, { params: { idOrSlug: activity } });
const update = (c: JudgeClient, id: string, body: OperationInput<typeof ops.updateSeries>['body']) => c.call(ops.updateSeries, { params: { seriesId: id }, body });
const shift = (c: JudgeClient, id: string, minutes: number) => c.call(ops.shiftSeries, { params: { seriesId: id }, body: { minutes } });
const pause = (c: JudgeClient, id: string, hideProblems = false) => c.call(ops.pauseSeries, { params: { seriesId: id }, body: { hideProblems } });
const resume = (c: JudgeClient, id: string, extendEnd = false) => c.call(ops.resumeSeries, { params: { seriesId: id }, body: { extendEnd } });
const remove = (c: JudgeClient, id: string) => c.call(ops.deleteSeries, { params: { seriesId: id } });
const reorder = (c: JudgeClient, activity: string, orderedIds: string[]) => c.call(ops.reorderSeries, { params: { idOrSlug: activity }, body: { orderedIds } });
const row = (id: string) => j.app.deps.db.select().from(seriesTable).where(eq(seriesTable.id, id)).get();

beforeAll(async () => {
  j = await TestJudge.start({ clock });
  j.app.scheduler.stop();
  w = await World.create(j, clock);
  [M, P, MB, PB, U] = await Promise.all([w.party('manager'), w.party('participant'), w.party('manager-b'), w.party('participant-b'), w.party('user')]);
  B = await w.activity();
  await j.grant(MB.u.id, 'manager', B.id);
  await j.grant(PB.u.id, 'participant', B.id);
  streams = {
    M: await listen(j, M.u),
    P: await listen(j, P.u),
    MB: await listen(j, MB.u),
    PB: await listen(j, PB.u),
    U: await listen(j, U.u),
    admin: await listen(j, { username: 'admin', password: ADMIN_PASSWORD }),
  };
});
afterAll(async () => {
  for (const s of Object.values(streams ?? {})) s.close();
  await j?.stop();
});
beforeEach(() => clock.set(new Date(T0)));

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
      series: { id: first.id, slug: 'week-1', name: 'Week 1', order: 1, isOpen: true },
      problems: [],
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
    expect(row(s.id)!.openedAt).toBeNull();
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
    expect(row(s.id)!.openedAt).toBe(T0);
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
    expect(row(s.id)!.openedAt).toBe(T0);
    let got = await heard();
    expect(changes(got.P)).toEqual(['opened']);

    u = await shift(M.c, s.id, 5); // still open, ends later: rescheduled
    expect(u.isOpen).toBe(true);
    got = await heard();
    expect(changes(got.P)).toEqual(['rescheduled']);

    u = await shift(M.c, s.id, 60); // starts in the future again: closed, as if it never opened
    expect(u.isOpen).toBe(false);
    expect(row(s.id)!.openedAt).toBeNull();
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
    expect(only(got.P, 'seriesChanged')).toEqual([expect.objectContaining({ change: 'opened', problems: [] })]);
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

describe('DELETE /series/{seriesId}', () => {
  it('deletes the series with its assignments and tells managers which one went', async () => {
    const a = await world();
    const author = await w.party('author', { author: true });
    const { problem } = await w.problem(author.c);
    const s = await create(M.c, a.id);
    const keep = await create(M.c, a.id);
    await w.j.grant(author.u.id, 'manager', a.id);
    await author.c.call(ops.attachProblem, { params: { seriesId: s.id }, body: { problemId: problem.id } });
    const assignments = j.count('series_problems');
    await heard();
    const res = await M.c.send(ops.deleteSeries, { params: { seriesId: s.id } });
    expect(res.status).toBe(204);
    expect((await list(M.c, a.id)).map((x) => x.id)).toEqual([keep.id]);
    expect(j.count('series_problems')).toBe(assignments - 1);
    const got = await heard();
    expect(only(got.M, 'managerSeriesChanged')).toEqual([{ activityId: a.id, deletedId: s.id }]);
    for (const k of ['P', 'MB', 'PB', 'U'] as const) expect(got[k]).toEqual([]);
    await w.refused(remove(M.c, s.id), 404, 'not_found');
  });

  it('refuses a series that holds submissions', async () => {
    const a = await world();
    const author = await w.party('author', { author: true });
    await j.grant(author.u.id, 'manager', a.id);
    const { problem, version } = await w.problem(author.c);
    const s = await create(M.c, a.id);
    const withProblem = await author.c.call(ops.attachProblem, { params: { seriesId: s.id }, body: { problemId: problem.id } });
    w.submit({ activityId: a.id, seriesId: s.id, assignmentId: withProblem.problems[0]!.id, versionId: version.id, userId: P.u.id });
    await w.refused(remove(M.c, s.id), 409, 'series.hasSubmissions');
  });

  it('is for managers of the activity, and not while it is archived', async () => {
    const a = await world();
    const s = await create(M.c, a.id);
    await w.refused(remove(P.c, s.id), 403, 'forbidden');
    await w.refused(remove(U.c, s.id), 404, 'not_found');
    await w.refused(remove(MB.c, s.id), 404, 'not_found');
    await w.refused(remove(M.c, UNKNOWN_UUID), 404, 'not_found');
    await w.archived(a.id, true);
    await w.refused(remove(M.c, s.id), 409, 'activity.archived');
  });
});

describe('POST /activities/{idOrSlug}/series/order', () => {
  it('puts the listed series first in that order and the rest after in their old order', async () => {
    const a = await world();
    const [s1, s2, s3, s4] = [await create(M.c, a.id), await create(M.c, a.id), await create(M.c, a.id), await create(M.c, a.id)];
    await heard();
    const ordered = await reorder(M.c, a.slug, [s3!.id, s1!.id]);
    expect(ordered.map((s) => [s.id, s.order])).toEqual([
      [s3!.id, 1],
      [s1!.id, 2],
      [s2!.id, 3],
      [s4!.id, 4],
    ]);
    expect(await list(M.c, a.id)).toEqual(ordered);
    const got = await heard();
    // s4 kept its place; the others moved
    expect(only(got.M, 'managerSeriesChanged').map((d) => d.seriesId).sort()).toEqual([s1!.id, s2!.id, s3!.id].sort());
    expect(got.P).toEqual([]);
    // an empty list changes nothing
    expect(await reorder(M.c, a.id, [])).toEqual(ordered);
  });

  it('refuses ids not of this activity, repeated ids and non-UUIDs, changing nothing', async () => {
    const a = await world();
    const s1 = await create(M.c, a.id);
    const foreign = await create(MB.c, B.id);
    await w.refused(reorder(M.c, a.id, [s1.id, foreign.id]), 422, 'order.foreign');
    await w.refused(reorder(M.c, a.id, [UNKNOWN_UUID]), 422, 'order.foreign');
    await w.refused(reorder(M.c, a.id, [s1.id, s1.id]), 422, 'validation_failed');
    await w.refusedRaw(M.c, 'POST', `/activities/${a.id}/series/order`, { orderedIds: ['first'] }, 422, 'validation_failed');
    await w.refusedRaw(M.c, 'POST', `/activities/${a.id}/series/order`, { orderedIds: s1.id }, 422, 'validation_failed');
  });

  it('is for managers of the activity, and not while it is archived', async () => {
    const a = await world();
    const s1 = await create(M.c, a.id);
    await w.refused(reorder(P.c, a.id, [s1.id]), 403, 'forbidden');
    await w.refused(reorder(U.c, a.id, [s1.id]), 404, 'not_found');
    await w.refused(reorder(MB.c, a.id, [s1.id]), 404, 'not_found');
    await w.archived(a.id, true);
    await w.refused(reorder(M.c, a.id, [s1.id]), 409, 'activity.archived');
  });
});
