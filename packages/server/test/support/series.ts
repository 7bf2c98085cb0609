import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { ops, type Activity, type OperationInput, type Series } from '@judge/contract';
import type { EventStream, Frame, JudgeClient } from '@judge/sdk';
import { series as seriesTable } from '../../src/db/schema.js';
import { ADMIN_PASSWORD, ManualClock, TestJudge } from '../harness.js';
import { T0, World, listen, only, type Party } from '../series-fixtures.js';

/**
 * What the series tests share: one server on a ManualClock reset to T0 before every test, the
 * parties (M and P in activity A, MB and PB in B, U signed in only) with their event streams, and
 * the series operations.
 */

export type CreateBody = OperationInput<typeof ops.createSeries>['body'];

export const clock = new ManualClock(new Date(T0));
export let j: TestJudge;
export let w: World;

/**
 * M manages the activities of `world()`, P takes part in them; MB manages B where PB takes part; U
 * is only signed in.
 */
export let M: Party, P: Party, MB: Party, PB: Party, U: Party;
export let B: Activity;
let streams: { M: EventStream; P: EventStream; MB: EventStream; PB: EventStream; U: EventStream; admin: EventStream };

export const PARTIES = ['M', 'P', 'MB', 'PB', 'U', 'admin'] as const;
export type Heard = Record<(typeof PARTIES)[number], Frame[]>;

/** What each party was sent since the last call. */
export async function heard(): Promise<Heard> {
  const got = await w.barrier(PARTIES.map((k) => streams[k]));
  return Object.fromEntries(PARTIES.map((k, i) => [k, got[i]!])) as Heard;
}

/** The `change` of every seriesChanged frame. */
export const changes = (frames: Frame[]) => only(frames, 'seriesChanged').map((d) => d.change);

/** A fresh published activity that M manages and P takes part in. */
export async function world(body: Parameters<World['activity']>[0] = {}): Promise<Activity> {
  const a = await w.activity(body);
  await j.grant(M.u.id, 'manager', a.id);
  await j.grant(P.u.id, 'participant', a.id);
  return a;
}

export const create = (c: JudgeClient, activity: string, body: Partial<CreateBody> = {}): Promise<Series> =>
  c.call(ops.createSeries, { params: { idOrSlug: activity }, body: { slug: w.uniq('s'), name: 'Week', ...body } });
export const list = (c: JudgeClient, activity: string) => c.call(ops.listManagedSeries, { params: { idOrSlug: activity } });
export const update = (c: JudgeClient, id: string, body: OperationInput<typeof ops.updateSeries>['body']) => c.call(ops.updateSeries, { params: { seriesId: id }, body });
export const shift = (c: JudgeClient, id: string, minutes: number) => c.call(ops.shiftSeries, { params: { seriesId: id }, body: { minutes } });
export const pause = (c: JudgeClient, id: string, hideProblems = false) => c.call(ops.pauseSeries, { params: { seriesId: id }, body: { hideProblems } });
export const resume = (c: JudgeClient, id: string, extendEnd = false) => c.call(ops.resumeSeries, { params: { seriesId: id }, body: { extendEnd } });
export const remove = (c: JudgeClient, id: string) => c.call(ops.deleteSeries, { params: { seriesId: id } });
export const reorder = (c: JudgeClient, activity: string, orderedIds: string[]) => c.call(ops.reorderSeries, { params: { idOrSlug: activity }, body: { orderedIds } });
export const row = async (id: string) => (await j.app.deps.tx.read((q) => q.select().from(seriesTable).where(eq(seriesTable.id, id))))[0];

/**
 * Starts the server, signs the parties in and opens their streams before the calling file's tests;
 * resets the clock before each test; stops it all after them. `managerIsAuthor`: M may also write problems.
 */
export function useSeriesWorld(o: { managerIsAuthor?: boolean } = {}): void {
  beforeAll(async () => {
    j = await TestJudge.start({ clock });
    // the tests call tick(now) themselves
    j.app.scheduler.stop();
    w = await World.create(j, clock);
    [M, P, MB, PB, U] = await Promise.all([w.party('manager', { author: !!o.managerIsAuthor }), w.party('participant'), w.party('manager-b'), w.party('participant-b'), w.party('user')]);
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
}
