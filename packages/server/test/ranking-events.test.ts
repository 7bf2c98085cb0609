import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStream } from '@judge/sdk';
import { ManualClock } from './harness.js';
import { T0, at, listen, only, type Party } from './series-fixtures.js';
import { Fixture } from './support/ranking.js';

/**
 * The ranking over real HTTP: the rankingChanged events and who is told. Fixtures in
 * support/ranking.ts.
 */

describe('rankingChanged events', () => {
  const clock = new ManualClock(new Date(T0));
  let f: Fixture;
  /** P and Q take part in the activities made here; PB in another one; U in none. */
  let P: Party, Q: Party, PB: Party, U: Party;
  let streams: Record<'M' | 'P' | 'Q' | 'PB' | 'U', EventStream>;
  const PARTIES = ['M', 'P', 'Q', 'PB', 'U'] as const;
  /** The rankingChanged data each party received. */
  type Heard = Record<(typeof PARTIES)[number], Record<string, unknown>[]>;

  async function heard(): Promise<Heard> {
    // results wait to be coalesced (ranking-signals.test.ts); here each is sent before the barrier
    await f.j.delivered();
    f.j.app.hub.flushRankingSignals();
    const got = await f.w.barrier(PARTIES.map((k) => streams[k]));
    return Object.fromEntries(PARTIES.map((k, i) => [k, only(got[i]!, 'rankingChanged')])) as Heard;
  }
  const tick = (minutes: number) => f.j.app.rankingAnnouncer.tick(new Date(at(minutes)));
  /** What the judging flow does with resultEvents: emits them in its write transaction. */
  const announce = (submissionId: string) =>
    f.j.app.deps.tx.write(async (q, out) => {
      for (const e of await f.j.app.services.ranking.resultEventsIn(q, submissionId)) out.emit(e);
    });

  beforeAll(async () => {
    f = await Fixture.start(clock);
    [P, Q, PB, U] = [await f.person('p', {}, 'cookie'), await f.person('q', {}, 'cookie'), await f.person('pb', {}, 'cookie'), await f.person('u', {}, 'cookie')];
    const elsewhere = await f.activity([PB]);
    void elsewhere;
    streams = { M: await listen(f.j, f.M.u), P: await listen(f.j, P.u), Q: await listen(f.j, Q.u), PB: await listen(f.j, PB.u), U: await listen(f.j, U.u) };
  });
  afterAll(async () => {
    for (const s of Object.values(streams ?? {})) s.close();
    await f?.j.stop();
  });

  it('the announcer tells the ranking readers when a window opens and when a freeze is revealed, once each', async () => {
    clock.set(new Date(T0));
    // the worker started at T0 and noted it; a new tick at or before that instant announces nothing
    expect(await tick(0)).toEqual([]);
    const a = await f.activity([P, Q]);
    const s = await f.series(a, { startDate: at(0), rankingVisibleFrom: at(5), rankingFreezeAt: at(10), rankingRevealAt: at(20) });
    const byStart = await f.series(a, { startDate: at(7) });
    const unpublished = await f.activity([P]);
    await f.series(unpublished, { startDate: at(0), rankingVisibleFrom: at(5), rankingFreezeAt: at(10), rankingRevealAt: at(20) });
    await f.w.published(unpublished.id, false);
    const noFreeze = await f.series(a, { startDate: at(-10), rankingRevealAt: at(20) });
    void noFreeze;
    await heard();

    expect(await tick(4.99)).toEqual([]);
    expect(await tick(5)).toEqual([{ activityId: a.id, seriesId: s.id, change: 'windowOpened' }]);
    expect(await tick(5)).toEqual([]);
    expect(await tick(8)).toEqual([{ activityId: a.id, seriesId: byStart.id, change: 'windowOpened' }]);
    expect(await tick(19.99)).toEqual([]);
    expect(await tick(20)).toEqual([{ activityId: a.id, seriesId: s.id, change: 'unfrozen' }]);
    expect(await tick(600)).toEqual([]);

    const got = await heard();
    const told = [
      { activityId: a.id, change: 'windowOpened', seriesId: s.id },
      { activityId: a.id, change: 'windowOpened', seriesId: byStart.id },
      { activityId: a.id, change: 'unfrozen', seriesId: s.id },
    ];
    for (const k of ['M', 'P', 'Q'] as const) expect(got[k]).toEqual(told);
    for (const k of ['PB', 'U'] as const) expect(got[k]).toEqual([]);
  });

  it('a restarted announcer only notes the time on its first tick', async () => {
    const { RankingAnnouncer } = await import('../src/workers/ranking-announcer.js');
    const a = await f.activity([P]);
    const s = await f.series(a, { startDate: at(1000), rankingFreezeAt: at(1010), rankingRevealAt: at(1020) });
    const fresh = new RankingAnnouncer(f.j.app.deps);
    expect(await fresh.tick(new Date(at(1015)))).toEqual([]);
    expect(await fresh.tick(new Date(at(1030)))).toEqual([{ activityId: a.id, seriesId: s.id, change: 'unfrozen' }]);
    // a clock set back does not repeat it
    expect(await fresh.tick(new Date(at(1010)))).toEqual([]);
    expect(await fresh.tick(new Date(at(1030)))).toEqual([]);
    const got = await heard();
    expect(got.P).toEqual([{ activityId: a.id, change: 'unfrozen', seriesId: s.id }]);
    expect(got.Q).toEqual([]);
  });

  it('results go to those who may see them: everyone, frozen, out of window, participantOnly, managersOnly, non-participants', async () => {
    clock.set(new Date(at(20)));
    const a = await f.activity([P, Q]);
    const open = await f.series(a, { startDate: at(0) });
    const A = await f.task(open, 50);
    const frozen = await f.series(a, { startDate: at(0), rankingFreezeAt: at(10), rankingRevealAt: at(100) });
    const B = await f.task(frozen);
    const notYet = await f.series(a, { startDate: at(0), rankingVisibleFrom: at(50) });
    const C = await f.task(notYet);
    await heard();

    // visible to everyone who reads the ranking; the score as every surface shows it (rescaled to maxPoints)
    const id = await f.submit(a, A, P, { minutes: 15, verdict: 'AC', score: 1, maxScore: 1 });
    await announce(id);
    let got = await heard();
    const result = {
      submissionId: id,
      userId: P.u.id,
      problemId: A.id,
      submittedAt: at(15),
      state: 'completed',
      verdict: 'AC',
      score: 50,
      maxScore: 50,
      excluded: false,
      // the peer's ContestantResult names for the same
      id,
      contestantId: P.u.id,
      seriesId: open.id,
      problemSlug: A.slug,
      points: 50,
    };
    for (const k of ['M', 'P', 'Q'] as const) expect(got[k]).toEqual([{ activityId: a.id, change: 'result', seriesId: open.id, result }]);
    for (const k of ['PB', 'U'] as const) expect(got[k]).toEqual([]);

    // made after the freeze: the result only to those who see through it, the bare change to the others
    const late = await f.submit(a, B, P, { minutes: 15, state: 'queued' });
    await announce(late);
    got = await heard();
    expect(got.M).toEqual([{ activityId: a.id, change: 'result', seriesId: frozen.id, result: { submissionId: late, userId: P.u.id, problemId: B.id, submittedAt: at(15), state: 'queued', excluded: false, id: late, contestantId: P.u.id, seriesId: frozen.id, problemSlug: B.slug } }]);
    for (const k of ['P', 'Q'] as const) expect(got[k]).toEqual([{ activityId: a.id, change: 'result', seriesId: frozen.id }]);
    for (const k of ['PB', 'U'] as const) expect(got[k]).toEqual([]);

    // a series outside its window: managers only
    await announce(await f.submit(a, C, Q, { minutes: 15, verdict: 'WA' }));
    got = await heard();
    expect(got.M).toHaveLength(1);
    expect(got.M[0]).toMatchObject({ change: 'result', seriesId: notYet.id, result: { userId: Q.u.id, verdict: 'WA' } });
    for (const k of ['P', 'Q', 'PB', 'U'] as const) expect(got[k]).toEqual([]);

    // the manager's own submission is in nobody's ranking
    await announce(await f.submit(a, A, f.M, { minutes: 15, verdict: 'AC' }));
    for (const frames of Object.values(await heard())) expect(frames).toEqual([]);

    // participantOnly: the managers and the author; managersOnly: the managers
    const mine = await f.activity([P, Q], { scoreVisibility: 'participantOnly' });
    const D = await f.task(await f.series(mine));
    const ownId = await f.submit(mine, D, P, { minutes: 15, verdict: 'WA' });
    await announce(ownId);
    got = await heard();
    for (const k of ['M', 'P'] as const) expect(got[k]).toEqual([expect.objectContaining({ activityId: mine.id, result: expect.objectContaining({ submissionId: ownId }) })]);
    for (const k of ['Q', 'PB', 'U'] as const) expect(got[k]).toEqual([]);

    const managers = await f.activity([P, Q], { scoreVisibility: 'managersOnly' });
    const E = await f.task(await f.series(managers));
    await announce(await f.submit(managers, E, P, { minutes: 15, verdict: 'AC' }));
    got = await heard();
    expect(got.M).toHaveLength(1);
    for (const k of ['P', 'Q', 'PB', 'U'] as const) expect(got[k]).toEqual([]);
  });
});
