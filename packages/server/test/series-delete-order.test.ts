import { describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { UNKNOWN_UUID, only } from './series-fixtures.js';
import { j, w, M, P, MB, U, B, heard, world, create, list, remove, reorder, useSeriesWorld } from './support/series.js';

/**
 * The managers' side of series over real HTTP (decisions §5, §7): deleting and reordering series,
 * who may do each, and which events reach whom. Shared world in support/series.ts.
 */

useSeriesWorld();

describe('DELETE /series/{seriesId}', () => {
  it('deletes the series with its assignments and tells managers which one went', async () => {
    const a = await world();
    const author = await w.party('author', { author: true });
    const { problem } = await w.problem(author.c);
    const s = await create(M.c, a.id);
    const keep = await create(M.c, a.id);
    await w.j.grant(author.u.id, 'manager', a.id);
    await author.c.call(ops.attachProblem, { params: { seriesId: s.id }, body: { problemId: problem.id } });
    const assignments = (await j.count('series_problems'));
    await heard();
    const res = await M.c.send(ops.deleteSeries, { params: { seriesId: s.id } });
    expect(res.status).toBe(204);
    expect((await list(M.c, a.id)).map((x) => x.id)).toEqual([keep.id]);
    expect((await j.count('series_problems'))).toBe(assignments - 1);
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
    await w.submit({ activityId: a.id, seriesId: s.id, assignmentId: withProblem.problems[0]!.id, versionId: version.id, userId: P.u.id });
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
