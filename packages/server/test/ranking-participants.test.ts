import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { ManualClock } from './harness.js';
import { T0, at, type Party } from './series-fixtures.js';
import { Fixture } from './support/ranking.js';

/**
 * The ranking keeps each activity's participant list (sorted by name once) while the members'
 * names and ids stay the same: a rename, a new member or a member whose name is cleared shows in
 * the next standings, in its place among tied rows.
 */

describe('the ranking: its participants follow the members', () => {
  const clock = new ManualClock(new Date(T0));
  let f: Fixture;
  let ann: Party, bob: Party, cid: Party;

  beforeAll(async () => {
    f = await Fixture.start(clock);
    // members rename themselves below, which the instance allows only when switched on
    await (await f.j.admin()).call(ops.updateInstance, { body: { allowRenameStaffAccounts: true } });
    ann = await f.person('ann', { firstName: 'Ann', lastName: 'Lee' });
    bob = await f.person('bob', { firstName: 'Bob', lastName: 'Stone' });
    cid = await f.person('cid', { firstName: 'Cid', lastName: 'Ray' });
  });
  afterAll(() => f?.j.stop());

  it('shows a rename, a cleared name and a new member at once, tied rows in the new name order', async () => {
    const a = await f.activity([ann, bob]);
    const s = await f.series(a, { startDate: at(0) });
    await f.task(s);
    const names = async () => (await f.ranking(ann, a)).rows.map((r) => [r.rank, r.userName]);
    expect(await names()).toEqual([
      [1, 'Ann Lee'],
      [1, 'Bob Stone'],
    ]);
    // tied rows are shown by name: Ann, renamed Zoe, moves after Bob
    await ann.c.call(ops.updateAccount, { body: { firstName: 'Zoe' } });
    expect(await names()).toEqual([
      [1, 'Bob Stone'],
      [1, 'Zoe Lee'],
    ]);
    // without a name the login is shown
    await bob.c.call(ops.updateAccount, { body: { firstName: null, lastName: null } });
    expect(await names()).toEqual([
      [1, bob.u.username],
      [1, 'Zoe Lee'],
    ]);
    await f.j.grant(cid.u.id, 'participant', a.id);
    expect(await names()).toEqual([
      [1, bob.u.username],
      [1, 'Cid Ray'],
      [1, 'Zoe Lee'],
    ]);
  });
});
