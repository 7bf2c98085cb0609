import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStream } from '@judge/sdk';
import { ManualClock } from './harness.js';
import { T0, at, listen, only, type Party } from './series-fixtures.js';
import { Fixture } from './support/ranking.js';

/**
 * The standings' result signals are coalesced (socket.rankingIntervalMs, events/ranking-signals.ts):
 * however many results an activity's series has within one interval, each member is told once,
 * after the last of them; one result alone is told as before, with its result. Who is told is
 * decided as for any event. Here the interval is an hour, so nothing goes out until the test
 * flushes; the last block runs a judge with a short interval and waits for its timer.
 */

const HOUR = 3_600_000;

describe('coalesced rankingChanged signals', () => {
  const clock = new ManualClock(new Date(at(20)));
  let f: Fixture;
  let P: Party, Q: Party, PB: Party, U: Party;
  let streams: Record<'M' | 'P' | 'Q' | 'PB' | 'U', EventStream>;
  const PARTIES = ['M', 'P', 'Q', 'PB', 'U'] as const;
  type Heard = Record<(typeof PARTIES)[number], Record<string, unknown>[]>;

  async function heard(): Promise<Heard> {
    const got = await f.w.barrier(PARTIES.map((k) => streams[k]));
    return Object.fromEntries(PARTIES.map((k, i) => [k, only(got[i]!, 'rankingChanged')])) as Heard;
  }
  const announce = async (submission: string | Promise<string>) => {
    const id = await submission;
    await f.j.app.deps.tx.write(async (q, out) => {
      for (const e of await f.j.app.services.ranking.resultEventsIn(q, id)) out.emit(e);
    });
  };

  beforeAll(async () => {
    f = await Fixture.start(clock, { socket: { rankingIntervalMs: HOUR } });
    [P, Q, PB, U] = [await f.person('p', {}, 'cookie'), await f.person('q', {}, 'cookie'), await f.person('pb', {}, 'cookie'), await f.person('u', {}, 'cookie')];
    await f.activity([PB]);
    streams = { M: await listen(f.j, f.M.u), P: await listen(f.j, P.u), Q: await listen(f.j, Q.u), PB: await listen(f.j, PB.u), U: await listen(f.j, U.u) };
  });
  afterAll(async () => {
    for (const s of Object.values(streams ?? {})) s.close();
    await f?.j.stop();
  });

  it('N results within the interval: each member one signal, sent after the last; a lone result keeps its result', async () => {
    const a = await f.activity([P, Q]);
    const s = await f.series(a, { startDate: at(0) });
    const [A, B] = [await f.task(s), await f.task(s)];
    await heard();

    for (const [t, who, verdict] of [[A, P, 'WA'], [A, Q, 'AC'], [B, P, 'AC'], [B, Q, 'TLE'], [A, P, 'AC']] as const) {
      await announce(f.submit(a, t, who, { minutes: 15, verdict }));
    }
    // held: nothing yet, not even the first
    let got = await heard();
    for (const k of PARTIES) expect(got[k]).toEqual([]);

    await f.j.delivered();
    f.j.app.hub.flushRankingSignals();
    got = await heard();
    for (const k of ['M', 'P', 'Q'] as const) expect(got[k]).toEqual([{ activityId: a.id, change: 'result', seriesId: s.id }]);
    for (const k of ['PB', 'U'] as const) expect(got[k]).toEqual([]);

    // nothing is held any more: a second flush sends nothing
    await f.j.delivered();
    f.j.app.hub.flushRankingSignals();
    got = await heard();
    for (const k of PARTIES) expect(got[k]).toEqual([]);

    // one result in an interval goes as it always did, its result included
    const last = await f.submit(a, B, P, { minutes: 16, verdict: 'AC' });
    await announce(last);
    await f.j.delivered();
    f.j.app.hub.flushRankingSignals();
    got = await heard();
    for (const k of ['M', 'P', 'Q'] as const) {
      expect(got[k]).toEqual([{ activityId: a.id, change: 'result', seriesId: s.id, result: expect.objectContaining({ submissionId: last, userId: P.u.id, verdict: 'AC' }) }]);
    }
    for (const k of ['PB', 'U'] as const) expect(got[k]).toEqual([]);
  });

  it('audiences are never merged: each series and each audience (freeze, participantOnly) its own signal', async () => {
    const a = await f.activity([P, Q]);
    const open = await f.series(a, { startDate: at(0) });
    const frozen = await f.series(a, { startDate: at(0), rankingFreezeAt: at(10), rankingRevealAt: at(100) });
    const [A, B] = [await f.task(open), await f.task(frozen)];
    await heard();

    await announce(f.submit(a, A, P, { minutes: 15, verdict: 'AC' }));
    await announce(f.submit(a, A, Q, { minutes: 15, verdict: 'WA' }));
    await announce(f.submit(a, B, P, { minutes: 15, verdict: 'AC' }));
    await announce(f.submit(a, B, Q, { minutes: 15, verdict: 'AC' }));
    await f.j.delivered();
    f.j.app.hub.flushRankingSignals();
    let got = await heard();
    const bare = (seriesId: string) => ({ activityId: a.id, change: 'result', seriesId });
    // the frozen results: to the manager among those who see through the freeze, to P and Q as the bare change
    for (const k of ['M', 'P', 'Q'] as const) expect(got[k]).toEqual([bare(open.id), bare(frozen.id)]);
    for (const k of ['PB', 'U'] as const) expect(got[k]).toEqual([]);

    // participantOnly: each author hears of their own results only, the managers of both
    const mine = await f.activity([P, Q], { scoreVisibility: 'participantOnly' });
    const D = await f.task(await f.series(mine));
    await heard();
    await announce(f.submit(mine, D, P, { minutes: 15, verdict: 'WA' }));
    await announce(f.submit(mine, D, P, { minutes: 16, verdict: 'AC' }));
    const fromQ = await f.submit(mine, D, Q, { minutes: 16, verdict: 'AC' });
    await announce(fromQ);
    await f.j.delivered();
    f.j.app.hub.flushRankingSignals();
    got = await heard();
    expect(got.P).toEqual([{ activityId: mine.id, change: 'result', seriesId: D.seriesId }]);
    expect(got.Q).toEqual([expect.objectContaining({ activityId: mine.id, result: expect.objectContaining({ submissionId: fromQ }) })]);
    expect(got.M).toHaveLength(2);
    for (const k of ['PB', 'U'] as const) expect(got[k]).toEqual([]);
  });
});

describe('coalesced rankingChanged signals, by the interval timer', () => {
  const clock = new ManualClock(new Date(T0));
  let f: Fixture;

  beforeAll(async () => {
    f = await Fixture.start(clock, { socket: { rankingIntervalMs: 200 } });
  });
  afterAll(() => f?.j.stop());

  it('a signal comes after the last change of the interval without anyone flushing, and only one', async () => {
    clock.set(new Date(at(20)));
    const [P, Q] = [await f.person('p', {}, 'cookie'), await f.person('q', {}, 'cookie')];
    const a = await f.activity([P, Q]);
    const s = await f.series(a, { startDate: at(0) });
    const A = await f.task(s);
    const streams = [await listen(f.j, f.M.u), await listen(f.j, P.u), await listen(f.j, Q.u)];
    try {
      // three results in one synchronous run: certainly within one interval
      const ids = [await f.submit(a, A, P, { minutes: 15, verdict: 'WA' }), await f.submit(a, A, Q, { minutes: 15, verdict: 'AC' }), await f.submit(a, A, P, { minutes: 16, verdict: 'AC' })];
      await f.j.app.deps.tx.write(async (q, out) => {
        for (const id of ids) for (const e of await f.j.app.services.ranking.resultEventsIn(q, id)) out.emit(e);
      });
      for (const st of streams) expect((await st.next('rankingChanged', 10_000)).data).toEqual({ activityId: a.id, change: 'result', seriesId: s.id });
      const after = await f.w.barrier(streams);
      for (const frames of after) expect(only(frames, 'rankingChanged')).toEqual([]);
    } finally {
      for (const st of streams) st.close();
    }
  });
});
