import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Scoreboard as ScoreboardSchema, ops, type Activity, type Scoreboard } from '@judge/contract';
import { refusedWith, sendJson } from './expect.js';
import { ManualClock } from './harness.js';
import { T0, at, type Party } from './series-fixtures.js';
import { Fixture, cell, rowOf, type Task } from './support/ranking.js';

/**
 * The public scoreboard (decisions §23): with the activity's publicScoreboard on, anybody signed
 * out reads the public view of the standings (getRanking) and the board around it
 * (getScoreboard); off, or unpublished, that is 404 as before. Signed in, the board is the public
 * view too, for whoever may read the ranking. Each rule is asked of a public (anonymous), a
 * participant and a staff caller.
 */

describe('the public scoreboard', () => {
  const clock = new ManualClock(new Date(T0));
  let f: Fixture;
  let M: Party;
  let ann: Party, bob: Party;

  beforeAll(async () => {
    f = await Fixture.start(clock);
    M = f.M;
    ann = await f.person('ann', { firstName: 'Ann', lastName: 'Lee' });
    bob = await f.person('bob', { firstName: 'Bob', lastName: 'Stone' });
  });
  afterAll(() => f?.j.stop());
  beforeEach(() => clock.set(new Date(T0)));

  const anonymous = (path: string) => sendJson(f.j.url, 'GET', path, undefined);
  const board = async (p: Party, a: Activity): Promise<Scoreboard> => ScoreboardSchema.strict().parse(await p.c.call(ops.getScoreboard, { params: { idOrSlug: a.slug } }));

  /** A contest with a freeze at 30 and the reveal at 55: ann solves A at 10 and B at 35 (frozen), bob A at 41 (frozen). */
  async function frozenContest(body: Parameters<Fixture['activity']>[1] = {}): Promise<{ a: Activity; A: Task; B: Task }> {
    const a = await f.activity([ann, bob], body);
    const s = await f.series(a, { startDate: at(0), rankingFreezeAt: at(30), rankingRevealAt: at(55) });
    const [A, B] = [await f.task(s), await f.task(s)];
    await f.submit(a, A, ann, { minutes: 10, verdict: 'AC' });
    await f.submit(a, B, ann, { minutes: 35, verdict: 'AC' });
    await f.submit(a, A, bob, { minutes: 40, verdict: 'WA' });
    await f.submit(a, A, bob, { minutes: 41, verdict: 'AC' });
    return { a, A, B };
  }

  it('is off by default: signed out, the ranking, the board and the feed are 404; a participant and staff read the public board', async () => {
    const { a, A } = await frozenContest();
    expect(a.publicScoreboard).toBe(false);
    clock.set(new Date(at(45)));
    for (const path of [`/activities/${a.slug}/ranking`, `/activities/${a.slug}/ranking?view=public`, `/activities/${a.slug}/scoreboard`, `/activities/${a.slug}/scoreboard/feed`]) {
      const r = await anonymous(path);
      expect({ path, status: r.status, code: r.body?.code }).toEqual({ path, status: 404, code: 'not_found' });
    }
    // signed in, the board is the public view whoever asks: staff see no more than a participant
    const staff = await board(M, a);
    const mine = await board(ann, a);
    expect(staff).toEqual(mine);
    expect(staff.ranking).toEqual(await f.ranking(ann, a, undefined, 'public'));
    expect(rowOf(staff.ranking, bob)!.cells[0]).toEqual(cell(A, { frozen: 2 }));
    // the ranking itself still answers staff with their own (unfrozen) view
    expect(rowOf(await f.ranking(M, a), bob)!.cells[0]).toMatchObject({ solved: true });
  });

  it('on: signed out gets exactly the public view during a freeze (no frozen result in any member), and the final one after the reveal', async () => {
    const { a, A, B } = await frozenContest({ publicScoreboard: true });
    expect(a.publicScoreboard).toBe(true);
    clock.set(new Date(at(45)));

    const ranking = await anonymous(`/activities/${a.slug}/ranking`);
    expect(ranking.status).toBe(200);
    expect(ranking.body).toEqual(await f.ranking(ann, a, undefined, 'public'));
    // asking for the caller's own view changes nothing signed out
    expect((await anonymous(`/activities/${a.slug}/ranking?view=own`)).body).toEqual(ranking.body);
    expect(ranking.body.frozen).toBe(true);

    const raw = await anonymous(`/activities/${a.slug}/scoreboard`);
    expect(raw.status).toBe(200);
    const b = ScoreboardSchema.strict().parse(raw.body);
    expect(b.ranking).toEqual(ranking.body);
    expect(b).toEqual(await board(ann, a));
    expect(b).toEqual(await board(M, a));
    expect(b.activity).toEqual({ id: a.id, slug: a.slug, name: a.name });
    expect(b.serverTime).toBe(at(45));
    expect(b.freeze).toEqual({ at: at(30), revealAt: at(55) });
    expect(b.series).toEqual([{ id: A.seriesId, rankingFreezeAt: at(30), rankingRevealAt: at(55) }]);
    expect(b.awardRules).toEqual({ gold: 4, silver: 4, bronze: 4, extraBronze: 0 });
    // only what the public view shows: ann's A; her B and bob's A are frozen
    expect(b.firstSolves).toEqual([{ problemId: A.id, userId: ann.u.id, solvedAt: at(10) }]);
    expect(b.medals).toEqual([{ userId: ann.u.id, medal: 'gold' }]);
    expect(rowOf(b.ranking, ann)!.cells[1]).toEqual(cell(B, { frozen: 1 }));
    // nothing of the hidden results is anywhere in the text, nor any login
    for (const text of [ranking.text, raw.text]) {
      for (const hidden of [at(35), at(41), at(40), ann.u.username, bob.u.username]) expect(text).not.toContain(hidden);
    }

    clock.set(new Date(at(56)));
    const after = ScoreboardSchema.strict().parse((await anonymous(`/activities/${a.slug}/scoreboard`)).body);
    expect(after.freeze).toBeUndefined();
    expect(after.ranking.frozen).toBe(false);
    expect(rowOf(after.ranking, bob)!.cells[0]).toEqual(cell(A, { attempts: 2, solved: true, penalty: 61, solvedAt: at(41) }));
    expect(after.firstSolves).toEqual([
      { problemId: A.id, userId: ann.u.id, solvedAt: at(10) },
      { problemId: B.id, userId: ann.u.id, solvedAt: at(35) },
    ]);
    expect(after.medals).toEqual([
      { userId: ann.u.id, medal: 'gold' },
      { userId: bob.u.id, medal: 'gold' },
    ]);
  });

  it('follows scoreVisibility signed out as for a participant: managersOnly shows no rows, participantOnly none either (nobody is signed in)', async () => {
    for (const scoreVisibility of ['managersOnly', 'participantOnly'] as const) {
      const { a } = await frozenContest({ publicScoreboard: true, scoreVisibility });
      const r = await anonymous(`/activities/${a.slug}/scoreboard`);
      expect(r.status).toBe(200);
      expect(r.body.ranking.rows).toEqual([]);
      expect(r.body.medals).toEqual([]);
      expect(r.body.firstSolves).toEqual([]);
    }
  });

  it('an unpublished activity is 404 signed out even with the switch on; the switch is read back, set by activity:update only, and bad input changes nothing', async () => {
    const { a } = await frozenContest({ publicScoreboard: true });
    await f.w.published(a.id, false);
    expect((await anonymous(`/activities/${a.slug}/scoreboard`)).status).toBe(404);
    expect((await anonymous(`/activities/${a.slug}/ranking`)).status).toBe(404);
    await f.w.published(a.id, true);
    expect((await anonymous(`/activities/${a.slug}/scoreboard`)).status).toBe(200);

    const off = await M.c.call(ops.updateActivity, { params: { idOrSlug: a.slug }, body: { slug: a.slug, publicScoreboard: false } });
    expect(off.publicScoreboard).toBe(false);
    expect((await M.c.call(ops.getManagedActivity, { params: { idOrSlug: a.slug } })).publicScoreboard).toBe(false);
    expect((await anonymous(`/activities/${a.slug}/scoreboard`)).status).toBe(404);
    // a participant may not switch it; a wrong type is refused; neither changes anything
    await refusedWith(ann.c.call(ops.updateActivity, { params: { idOrSlug: a.slug }, body: { slug: a.slug, publicScoreboard: true } }), 403, 'forbidden');
    const bad = await sendJson(f.j.url, 'PUT', `/activities/${a.slug}`, M.c.accessToken, { slug: a.slug, publicScoreboard: 'yes' });
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 422, code: 'validation_failed' });
    expect(bad.body.errors).toHaveProperty('publicScoreboard');
    expect((await M.c.call(ops.getManagedActivity, { params: { idOrSlug: a.slug } })).publicScoreboard).toBe(false);
    expect((await anonymous(`/activities/${a.slug}/scoreboard`)).status).toBe(404);
  });

  it('signed in, the board needs what the ranking needs: 404 to one who may not see the activity, 403 to a member without ranking:read; a dead token is 401', async () => {
    const { a } = await frozenContest();
    const stranger = await f.person('stranger');
    await refusedWith(stranger.c.call(ops.getScoreboard, { params: { idOrSlug: a.slug } }), 404, 'not_found');
    await f.w.admin.call(ops.createRole, { body: { name: 'Watcher', permissions: ['activity:read'] } });
    const watcher = await f.person('watcher');
    await f.j.grant(watcher.u.id, 'Watcher', a.id);
    await refusedWith(watcher.c.call(ops.getScoreboard, { params: { idOrSlug: a.slug } }), 403, 'forbidden');
    // a public board is everybody's, signed in or not
    await M.c.call(ops.updateActivity, { params: { idOrSlug: a.slug }, body: { slug: a.slug, publicScoreboard: true } });
    expect((await stranger.c.call(ops.getScoreboard, { params: { idOrSlug: a.slug } })).activity.id).toBe(a.id);
    expect((await watcher.c.call(ops.getScoreboard, { params: { idOrSlug: a.slug } })).activity.id).toBe(a.id);
    for (const path of [`/activities/${a.slug}/scoreboard`, `/activities/${a.slug}/ranking`]) {
      const dead = await sendJson(f.j.url, 'GET', path, 'x'.repeat(43));
      expect({ status: dead.status, code: dead.body.code }).toEqual({ status: 401, code: 'unauthenticated' });
    }
    // an unknown activity is 404 signed out as signed in
    expect((await anonymous('/activities/no-such-activity/scoreboard')).status).toBe(404);
    await refusedWith(M.c.call(ops.getScoreboard, { params: { idOrSlug: 'no-such-activity' } }), 404, 'not_found');
  });
});
