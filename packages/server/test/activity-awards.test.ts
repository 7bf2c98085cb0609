import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ops, type Activity } from '@judge/contract';
import { activityAwards, users } from '../src/db/schema.js';
import { refusedWith, sendJson } from './expect.js';
import { ManualClock } from './harness.js';
import { T0, at, type Party } from './series-fixtures.js';
import { tableSnapshot } from './support/db-snapshot.js';
import { Fixture } from './support/ranking.js';

/**
 * The awards of a finalised activity (decisions §24): computed from the full standings, citations
 * staff may adjust, shown to participants only once final and unfrozen.
 */

describe('the awards of an activity', () => {
  const clock = new ManualClock(new Date(T0));
  let f: Fixture;
  let M: Party;
  let ann: Party, bob: Party, cid: Party, dan: Party, eve: Party;

  const tag = (p: Party, tags: string[]) => f.j.app.deps.tx.write((q) => q.update(users).set({ tags }).where(eq(users.id, p.u.id)));

  beforeAll(async () => {
    f = await Fixture.start(clock);
    M = f.M;
    ann = await f.person('ann', { firstName: 'Ann', lastName: 'Lee' });
    bob = await f.person('bob', { firstName: 'Bob', lastName: 'Stone' });
    cid = await f.person('cid', { firstName: 'Cid', lastName: 'Moss' });
    dan = await f.person('dan', { firstName: 'Dan', lastName: 'Fox' });
    eve = await f.person('eve', { firstName: 'Eve', lastName: 'Gray' });
    await tag(ann, ['org:North School', 'Seniors']);
    await tag(bob, ['Juniors']);
    await tag(cid, ['Juniors', 'Seniors']);
    await tag(dan, ['Juniors']);
    await tag(eve, ['Beginners']);
  });
  afterAll(() => f?.j.stop());
  beforeEach(() => clock.set(new Date(T0)));

  const awardsOf = (p: Party, a: Activity) => p.c.call(ops.listActivityAwards, { params: { idOrSlug: a.slug } });
  const keys = (list: { awards: { key: string; userIds: string[] }[] }) => Object.fromEntries(list.awards.map((x) => [x.key, x.userIds]));

  it('gives winner, medals with extra bronze, first to solve (ties to the second) and group winners, through the freeze', async () => {
    const a = await f.activity([ann, bob, cid, dan, eve], { awardRules: { gold: 1, silver: 1, bronze: 0, extraBronze: 1 } });
    expect(a.awardRules).toEqual({ gold: 1, silver: 1, bronze: 0, extraBronze: 1 });
    const s = await f.series(a, { startDate: at(0), endDate: at(30), rankingFreezeAt: at(20), rankingRevealAt: at(50) });
    const [A, B] = [await f.task(s), await f.task(s)];
    // ann and bob tie on A to the minute: both solve it at 5 (same second), both solve B in the freeze
    await f.submit(a, A, ann, { minutes: 5, verdict: 'AC' });
    await f.submit(a, A, bob, { minutes: 5, verdict: 'AC' });
    await f.submit(a, B, ann, { minutes: 25, verdict: 'AC' });
    await f.submit(a, B, bob, { minutes: 25, verdict: 'AC' });
    await f.submit(a, A, cid, { minutes: 9, verdict: 'AC' });
    await f.submit(a, A, dan, { minutes: 12, verdict: 'AC' });
    await f.submit(a, A, eve, { minutes: 3, verdict: 'WA' });
    clock.set(new Date(at(40)));
    await M.c.call(ops.finalizeActivity, { params: { idOrSlug: a.slug } });

    const staff = await awardsOf(M, a);
    expect(staff.awards.map((x) => x.key)).toEqual([
      'winner',
      'gold-medal',
      'bronze-medal',
      `first-to-solve-${A.slug}`,
      `first-to-solve-${B.slug}`,
      'group-winner-juniors',
      'group-winner-seniors',
    ]);
    expect(keys(staff)).toMatchObject({
      winner: [ann.u.id, bob.u.id],
      'gold-medal': [ann.u.id, bob.u.id],
      // ranks 1, 1, 3, 4: silver reaches rank 2 only, bronze (extra) rank 3
      'bronze-medal': [cid.u.id],
      [`first-to-solve-${A.slug}`]: [ann.u.id, bob.u.id],
      [`first-to-solve-${B.slug}`]: [ann.u.id, bob.u.id],
      'group-winner-juniors': [bob.u.id],
      'group-winner-seniors': [ann.u.id],
    });
    expect(staff.awards[0]).toMatchObject({ citation: 'Contest winner', userNames: ['Ann Lee', 'Bob Stone'], adjusted: false });
    // eve solved nothing: Beginners has no winner; the org: tag is no group
    expect(staff.awards.some((x) => /beginners|north/.test(x.key))).toBe(false);

    // during the freeze participants see none of it (medals would tell who solved B)
    expect(await awardsOf(ann, a)).toEqual({ awards: [] });
    const raw = await sendJson(f.j.url, 'GET', `/activities/${a.slug}/awards`, ann.c.accessToken);
    expect(raw.text).not.toContain('medal');
    // once revealed, they do
    clock.set(new Date(at(50)));
    expect((await awardsOf(ann, a)).awards.map((x) => x.key)).toEqual(staff.awards.map((x) => x.key));
  });

  it('ranks a points contest by points, first to solve being the first full score', async () => {
    const a = await f.activity([ann, bob, cid], { rankingType: 'points', awardRules: { gold: 1, silver: 1, bronze: 1, extraBronze: 0 } });
    const s = await f.series(a, { startDate: at(0), endDate: at(30) });
    const A = await f.task(s, 100);
    await f.submit(a, A, ann, { minutes: 2, score: 60, maxScore: 100 });
    await f.submit(a, A, bob, { minutes: 6, score: 100, maxScore: 100 });
    await f.submit(a, A, ann, { minutes: 9, score: 100, maxScore: 100 });
    await f.submit(a, A, cid, { minutes: 4, score: 0, maxScore: 100 });
    clock.set(new Date(at(40)));
    await M.c.call(ops.finalizeActivity, { params: { idOrSlug: a.slug } });
    const got = keys(await awardsOf(M, a));
    // ann and bob both reach 100 points: a tie, both win gold; cid scored nothing, so wins no group
    expect(got).toEqual({
      winner: [ann.u.id, bob.u.id],
      'gold-medal': [ann.u.id, bob.u.id],
      [`first-to-solve-${A.slug}`]: [bob.u.id],
      'group-winner-juniors': [bob.u.id],
      'group-winner-seniors': [ann.u.id],
    });
  });

  it('keeps an adjusted citation over a new finalisation while its award exists, and refuses bad citations', async () => {
    const a = await f.activity([ann, bob]);
    const s = await f.series(a, { startDate: at(0), endDate: at(30) });
    const A = await f.task(s);
    await f.submit(a, A, ann, { minutes: 5, verdict: 'AC' });
    clock.set(new Date(at(40)));
    await M.c.call(ops.finalizeActivity, { params: { idOrSlug: a.slug } });

    const put = (p: Party, key: string, citation: unknown) => p.c.call(ops.updateActivityAward, { params: { idOrSlug: a.slug, key }, body: { citation } as { citation: string } });
    const before = await tableSnapshot(f.j, [activityAwards]);
    await refusedWith(put(M, 'winner', '   '), 422, 'validation_failed');
    await refusedWith(put(M, 'winner', 'x'.repeat(201)), 422, 'validation_failed');
    await refusedWith(put(M, 'winner', 7), 422, 'validation_failed');
    await refusedWith(put(M, 'no-such-award', 'Winner'), 404, 'not_found');
    await refusedWith(put(ann, 'winner', 'I win'), 403, 'forbidden');
    await refusedWith(f.j.anonymous().call(ops.updateActivityAward, { params: { idOrSlug: a.slug, key: 'winner' }, body: { citation: 'x' } }), 401, 'unauthenticated');
    expect(await tableSnapshot(f.j, [activityAwards])).toBe(before);

    const changed = await put(M, 'winner', '  Champion of the spring contest ');
    expect(changed).toEqual({ key: 'winner', citation: 'Champion of the spring contest', userIds: [ann.u.id], userNames: ['Ann Lee'], adjusted: true });

    // bob overtakes: reopened, his late accepted submission counts, finalised again
    await M.c.call(ops.reopenActivity, { params: { idOrSlug: a.slug } });
    const B = await f.task(s);
    await f.submit(a, A, bob, { minutes: 4, verdict: 'AC' });
    await f.submit(a, B, bob, { minutes: 6, verdict: 'AC' });
    await M.c.call(ops.finalizeActivity, { params: { idOrSlug: a.slug } });
    const again = await awardsOf(M, a);
    expect(again.awards.find((x) => x.key === 'winner')).toMatchObject({ citation: 'Champion of the spring contest', userIds: [bob.u.id], adjusted: true });
    expect(again.awards.find((x) => x.key === `first-to-solve-${A.slug}`)).toMatchObject({ citation: `First to solve problem ${A.slug}`, userIds: [bob.u.id], adjusted: false });
  });

  it('shows awards to participants only once final, and never where the activity hides results', async () => {
    const a = await f.activity([ann, bob], { scoreVisibility: 'participantOnly' });
    const s = await f.series(a, { startDate: at(0), endDate: at(30) });
    await f.submit(a, await f.task(s), ann, { minutes: 5, verdict: 'AC' });
    clock.set(new Date(at(40)));
    expect(await awardsOf(M, a)).toEqual({ awards: [] });
    await M.c.call(ops.finalizeActivity, { params: { idOrSlug: a.slug } });
    expect((await awardsOf(M, a)).awards).not.toEqual([]);
    expect(await awardsOf(bob, a)).toEqual({ awards: [] });
    const outsider = await f.person('out');
    await refusedWith(awardsOf(outsider, a), 404, 'not_found');
    await refusedWith(f.j.anonymous().call(ops.listActivityAwards, { params: { idOrSlug: a.slug } }), 401, 'unauthenticated');

    await M.c.call(ops.updateActivity, { params: { idOrSlug: a.slug }, body: { slug: a.slug, scoreVisibility: 'everyone' } });
    expect((await awardsOf(bob, a)).awards.map((x) => x.key)).toContain('winner');
  });

  it('takes medal counts on the activity, null going back to the defaults, and refuses bad ones', async () => {
    const a = await f.activity([]);
    const set = (awardRules: unknown) => M.c.call(ops.updateActivity, { params: { idOrSlug: a.slug }, body: { slug: a.slug, awardRules } as never });
    expect((await set({ gold: 2, silver: 3, bronze: 4, extraBronze: 1 })).awardRules).toEqual({ gold: 2, silver: 3, bronze: 4, extraBronze: 1 });
    await refusedWith(set({ gold: -1, silver: 3, bronze: 4, extraBronze: 1 }), 422, 'validation_failed');
    await refusedWith(set({ gold: 1.5, silver: 3, bronze: 4, extraBronze: 1 }), 422, 'validation_failed');
    await refusedWith(set({ gold: 1 }), 422, 'validation_failed');
    expect((await M.c.call(ops.getManagedActivity, { params: { idOrSlug: a.slug } })).awardRules).toEqual({ gold: 2, silver: 3, bronze: 4, extraBronze: 1 });
    expect((await set(null)).awardRules).toEqual({ gold: 4, silver: 4, bronze: 4, extraBronze: 0 });
  });
});
