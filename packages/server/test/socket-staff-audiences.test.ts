import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import type { EventStream } from '@judge/sdk';
import { ManualClock, TestJudge } from './harness.js';
import { T0, World, listen, only, type Party } from './series-fixtures.js';

/**
 * A staff audience's members are kept between events (events/staff-audiences.ts), so they must
 * follow every change they rest on: a grant given or taken, and a user connecting or leaving.
 * `activityChanged` goes to holders of activity:update in the activity; publishing the activity
 * back and forth sends one each time.
 */

describe('staff audiences kept between events', () => {
  const clock = new ManualClock(new Date(T0));
  let j: TestJudge;
  let w: World;
  let M: Party, X: Party, Y: Party;
  const streams: Record<string, EventStream> = {};
  let published = true;

  /** Toggles the activity's publication and answers who heard activityChanged. */
  async function told(activityId: string): Promise<string[]> {
    published = !published;
    await w.published(activityId, published);
    const names = Object.keys(streams);
    const got = await w.barrier(names.map((k) => streams[k]!));
    return names.filter((_, i) => only(got[i]!, 'activityChanged').length > 0).sort();
  }

  beforeAll(async () => {
    j = await TestJudge.start({ clock });
    w = await World.create(j, clock);
    [M, X, Y] = [await w.party('m'), await w.party('x'), await w.party('y')];
  });
  afterAll(async () => {
    for (const s of Object.values(streams)) s.close();
    await j?.stop();
  });

  it('follow grants given and taken, and users who connect later', async () => {
    const a = await w.activity();
    const mine = await j.grant(M.u.id, 'manager', a.id);
    streams.M = await listen(j, M.u);
    streams.X = await listen(j, X.u);
    expect(await told(a.id)).toEqual(['M']);
    expect(await told(a.id)).toEqual(['M']);

    // a grant given: X now manages it
    await j.grant(X.u.id, 'manager', a.id);
    expect(await told(a.id)).toEqual(['M', 'X']);

    // a grant taken: M no longer does
    await w.admin.call(ops.deleteGrant, { params: { id: mine.id } });
    expect(await told(a.id)).toEqual(['X']);

    // Y manages it before connecting; heard once connected
    await j.grant(Y.u.id, 'manager', a.id);
    expect(await told(a.id)).toEqual(['X']);
    streams.Y = await listen(j, Y.u);
    expect(await told(a.id)).toEqual(['X', 'Y']);

    // X leaves: the others still hear it
    streams.X.close();
    delete streams.X;
    await w.barrier(Object.values(streams));
    expect(await told(a.id)).toEqual(['Y']);
  });
});
