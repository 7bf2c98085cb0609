import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity, type OperationInput, type Series, type SeriesProblem } from '@judge/contract';
import type { EventStream, Frame, JudgeClient } from '@judge/sdk';
import { ADMIN_PASSWORD, ManualClock, TestJudge } from './harness.js';
import { T0, UNKNOWN_UUID, World, listen, only, type Party } from './series-fixtures.js';

/**
 * Assignments (series problems) over real HTTP and a real SQLite file (decisions §5, §7, §14):
 * attach, reorder, change and detach; the managers' view of each (versions, package, submission
 * count); who may do each (problem:attach in the activity and a problem the caller may read);
 * what every refusal leaves untouched; and that only the activity's managers hear of it.
 */

type AttachBody = OperationInput<typeof ops.attachProblem>['body'];
type UpdateBody = OperationInput<typeof ops.updateAssignment>['body'];

const clock = new ManualClock(new Date(T0));
let j: TestJudge;
let w: World;

/**
 * M manages activity A and writes problems; M2 manages A but may read no problem it was not given;
 * P takes part in A; MB manages B and writes problems; U is only signed in.
 */
let M: Party, M2: Party, P: Party, MB: Party, U: Party;
let A: Activity, B: Activity;
let streams: { M: EventStream; M2: EventStream; P: EventStream; MB: EventStream; U: EventStream; admin: EventStream };

const PARTIES = ['M', 'M2', 'P', 'MB', 'U', 'admin'] as const;
type Heard = Record<(typeof PARTIES)[number], Frame[]>;

async function heard(): Promise<Heard> {
  const got = await w.barrier(PARTIES.map((k) => streams[k]));
  return Object.fromEntries(PARTIES.map((k, i) => [k, got[i]!])) as Heard;
}

const newSeries = (c: JudgeClient, activityId: string) => c.call(ops.createSeries, { params: { idOrSlug: activityId }, body: { slug: w.uniq('s'), name: 'Week' } });
const attach = (c: JudgeClient, seriesId: string, body: AttachBody) => c.call(ops.attachProblem, { params: { seriesId }, body });
const update = (c: JudgeClient, assignmentId: string, body: UpdateBody) => c.call(ops.updateAssignment, { params: { assignmentId }, body });
const detach = (c: JudgeClient, assignmentId: string) => c.call(ops.deleteAssignment, { params: { assignmentId } });
const reorder = (c: JudgeClient, seriesId: string, orderedIds: string[]) => c.call(ops.reorderSeriesProblems, { params: { seriesId }, body: { orderedIds } });
const listed = async (c: JudgeClient, activityId: string, seriesId: string) => (await c.call(ops.listManagedSeries, { params: { idOrSlug: activityId } })).find((s) => s.id === seriesId)!;
const last = (s: Series): SeriesProblem => s.problems[s.problems.length - 1]!;

/** A series of A with one problem of M attached; answers the pieces. */
async function attached(body: Partial<AttachBody> = {}, opts: { package?: boolean } = {}) {
  const s = await newSeries(M.c, A.id);
  const { problem, version } = await w.problem(M.c, opts);
  const after = await attach(M.c, s.id, { problemId: problem.id, ...body });
  return { s, problem, version, after, assignment: last(after) };
}

beforeAll(async () => {
  j = await TestJudge.start({ clock });
  j.app.scheduler.stop();
  w = await World.create(j, clock);
  [M, M2, P, MB, U] = await Promise.all([w.party('manager', { author: true }), w.party('manager-2'), w.party('participant'), w.party('manager-b', { author: true }), w.party('user')]);
  A = await w.activity();
  B = await w.activity();
  await j.grant(M.u.id, 'manager', A.id);
  await j.grant(M2.u.id, 'manager', A.id);
  await j.grant(P.u.id, 'participant', A.id);
  await j.grant(MB.u.id, 'manager', B.id);
  streams = {
    M: await listen(j, M.u),
    M2: await listen(j, M2.u),
    P: await listen(j, P.u),
    MB: await listen(j, MB.u),
    U: await listen(j, U.u),
    admin: await listen(j, { username: 'admin', password: ADMIN_PASSWORD }),
  };
});
afterAll(async () => {
  for (const s of Object.values(streams ?? {})) s.close();
  await j?.stop();
});

describe('POST /series/{seriesId}/problems', () => {
  it('attaches a problem last, following its newest version, with the slug and name of the problem; 201 with Location', async () => {
    const s = await newSeries(M.c, A.id);
    const { problem } = await w.problem(M.c, { slug: 'Sum', name: 'Sum of two' });
    await heard();
    const res = await M.c.send(ops.attachProblem, { params: { seriesId: s.id }, body: { problemId: problem.id } });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/v1/manager/activities/${A.id}/series`);
    const after = (await res.json()) as Series;
    expect(after).toEqual({ ...s, problems: [expect.any(Object)] });
    expect(after.problems[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/),
      seriesId: s.id,
      problemId: problem.id,
      problemSlug: 'Sum',
      problemName: 'Sum of two',
      slug: 'Sum',
      name: 'Sum of two',
      order: 1,
      currentVersion: 1,
      hasPackage: false,
      submissionCount: 0,
    });
    expect(await listed(M.c, A.id, s.id)).toEqual(after);

    const got = await heard();
    expect(only(got.M, 'managerSeriesChanged')).toEqual([{ activityId: A.id, seriesId: s.id }]);
    expect(only(got.M2, 'managerSeriesChanged')).toEqual([{ activityId: A.id, seriesId: s.id }]);
    expect(only(got.admin, 'managerSeriesChanged')).toEqual([{ activityId: A.id, seriesId: s.id }]);
    for (const k of ['P', 'MB', 'U'] as const) expect(got[k]).toEqual([]);
  });

  it('stores every member given, pinned to a version', async () => {
    const s = await newSeries(M.c, A.id);
    const { problem, version } = await w.problem(M.c);
    await w.version(M.c, problem.id, { package: true });
    const body = {
      problemId: problem.id,
      slug: 'custom',
      name: 'Own name',
      pinnedProblemVersionId: version.id,
      config: { languages: ['cpp', 'python3'] },
      spec: { checker: { kind: 'exact' } },
      props: { colour: 'blue' },
      maxPoints: 100,
      maxUploadBytes: 65536,
      maxAttachments: 3,
      maxSubmissions: 20,
    };
    const after = await attach(M.c, s.id, body);
    expect(after.problems).toEqual([
      {
        ...body,
        id: expect.any(String),
        seriesId: s.id,
        problemSlug: problem.slug,
        problemName: problem.name,
        order: 1,
        pinnedVersion: 1,
        currentVersion: 2,
        hasPackage: false, // v1, the pinned one, has none
        submissionCount: 0,
      },
    ]);
    const second = await attach(M.c, s.id, { problemId: problem.id, slug: 'again' });
    expect(second.problems.map((p) => [p.slug, p.order, p.hasPackage])).toEqual([
      ['custom', 1, false],
      ['again', 2, true], // follows v2, which has one
    ]);
  });

  it('refuses a slug the activity already uses in any series, whatever its case; another activity may use it', async () => {
    const { problem, s } = await attached({ slug: 'Taken' });
    await w.refused(attach(M.c, s.id, { problemId: problem.id, slug: 'TAKEN' }), 409, 'assignment.slug.taken');
    const other = await newSeries(M.c, A.id);
    await w.refused(attach(M.c, other.id, { problemId: problem.id, slug: 'taken' }), 409, 'assignment.slug.taken');
    // the default slug is the problem's, which is taken once it is attached under it
    const { problem: p2, s: s2 } = await attached();
    await w.refused(attach(M.c, s2.id, { problemId: p2.id }), 409, 'assignment.slug.taken');
    const inB = await newSeries(MB.c, B.id);
    const { problem: pb } = await w.problem(MB.c);
    expect(last(await attach(MB.c, inB.id, { problemId: pb.id, slug: 'taken' })).slug).toBe('taken');
  });

  it('refuses an archived problem, a version of another problem, and an archived activity', async () => {
    const s = await newSeries(M.c, A.id);
    const { problem } = await w.problem(M.c);
    const { version: foreign } = await w.problem(M.c);
    await w.refused(attach(M.c, s.id, { problemId: problem.id, pinnedProblemVersionId: foreign.id }), 422, 'version.foreign');
    await w.refused(attach(M.c, s.id, { problemId: problem.id, pinnedProblemVersionId: UNKNOWN_UUID }), 422, 'version.foreign');
    await M.c.call(ops.setProblemArchived, { params: { id: problem.id }, body: { archived: true } });
    await w.refused(attach(M.c, s.id, { problemId: problem.id }), 409, 'problem.archived');
    await M.c.call(ops.setProblemArchived, { params: { id: problem.id }, body: { archived: false } });

    const archivedActivity = await w.activity();
    await j.grant(M.u.id, 'manager', archivedActivity.id);
    const s2 = await newSeries(M.c, archivedActivity.id);
    await w.archived(archivedActivity.id, true);
    await w.refused(attach(M.c, s2.id, { problemId: problem.id }), 409, 'activity.archived');
  });

  it('needs problem:attach in the activity and a problem the caller may read', async () => {
    const s = await newSeries(M.c, A.id);
    const { problem: mine } = await w.problem(M.c);
    const { problem: hers } = await w.problem(MB.c); // private to MB
    // a manager of A may not attach a problem it cannot read: it does not exist for it
    await w.refused(attach(M.c, s.id, { problemId: hers.id }), 404, 'not_found');
    await w.refused(attach(M2.c, s.id, { problemId: mine.id }), 404, 'not_found');
    await w.refused(attach(M.c, s.id, { problemId: UNKNOWN_UUID }), 404, 'not_found');
    // who may not attach at all
    await w.refused(attach(P.c, s.id, { problemId: mine.id }), 403, 'forbidden');
    await w.refused(attach(U.c, s.id, { problemId: mine.id }), 404, 'not_found');
    await w.refused(attach(MB.c, s.id, { problemId: hers.id }), 404, 'not_found');
    await w.refused(attach(M.c, UNKNOWN_UUID, { problemId: mine.id }), 404, 'not_found');

    // shared with M, MB's problem becomes readable and attachable; instance-wide visibility is for readers of own problems
    await MB.c.call(ops.setProblemVisibility, { params: { id: hers.id }, body: { visibility: 'shared', sharedWith: [M.u.id] } });
    expect(last(await attach(M.c, s.id, { problemId: hers.id })).problemId).toBe(hers.id);
    await M.c.call(ops.setProblemVisibility, { params: { id: mine.id }, body: { visibility: 'instance' } });
    await w.refused(attach(M2.c, s.id, { problemId: mine.id }), 404, 'not_found');
    await j.grant(M2.u.id, 'Author');
    expect(last(await attach(M2.c, s.id, { problemId: mine.id })).problemId).toBe(mine.id);
    // the administrator reads every problem
    const { problem: third } = await w.problem(MB.c);
    expect(last(await attach(w.admin, s.id, { problemId: third.id })).problemId).toBe(third.id);
  });

  it('answers malformed input with 4xx problem+json and stores nothing', async () => {
    const s = await newSeries(M.c, A.id);
    const { problem } = await w.problem(M.c);
    const path = `/series/${s.id}/problems`;
    const bad: [unknown, string][] = [
      [{}, 'problemId'],
      [{ problemId: 'not-a-uuid' }, 'problemId'],
      [{ problemId: problem.id, slug: 'has space' }, 'slug'],
      [{ problemId: problem.id, name: '' }, 'name'],
      [{ problemId: problem.id, maxPoints: 0 }, 'maxPoints'],
      [{ problemId: problem.id, maxSubmissions: '5' }, 'maxSubmissions'],
      [{ problemId: problem.id, config: ['cpp'] }, 'config'],
      [{ problemId: problem.id, props: 'x' }, 'props'],
      [{ problemId: problem.id, pinnedProblemVersionId: 7 }, 'pinnedProblemVersionId'],
    ];
    for (const [body, member] of bad) {
      const pb = await w.refusedRaw(M.c, 'POST', path, body, 422, 'validation_failed');
      expect(Object.keys(pb.errors ?? {}).join(' ')).toContain(member);
    }
    await w.refusedRaw(M.c, 'POST', path, '{"problemId":', 400, 'request.malformed');
    await w.refusedRaw(M.c, 'POST', '/series/not-a-uuid/problems', { problemId: problem.id }, 404, 'not_found');
  });
});

describe('the managers view of an assignment', () => {
  it('follows the newest version and its package, or shows the pinned one; counts submissions', async () => {
    const { s, problem, version: v1, assignment } = await attached();
    expect(assignment).toMatchObject({ currentVersion: 1, hasPackage: false });
    expect(assignment).not.toHaveProperty('pinnedVersion');
    const v2 = await w.version(M.c, problem.id, { package: true });
    let view = (await listed(M.c, A.id, s.id)).problems[0]!;
    expect(view).toMatchObject({ currentVersion: 2, hasPackage: true });

    const pinned = await update(M.c, assignment.id, { problemId: problem.id, slug: assignment.slug, pinnedProblemVersionId: v1.id });
    expect(pinned.problems[0]).toMatchObject({ pinnedProblemVersionId: v1.id, pinnedVersion: 1, currentVersion: 2, hasPackage: false });

    await w.submit({ activityId: A.id, seriesId: s.id, assignmentId: assignment.id, versionId: v1.id, userId: P.u.id });
    await w.submit({ activityId: A.id, seriesId: s.id, assignmentId: assignment.id, versionId: v2.id, userId: P.u.id });
    view = (await listed(M.c, A.id, s.id)).problems[0]!;
    expect(view.submissionCount).toBe(2);
    // the problem's own slug and name show through, the assignment's name wins
    await M.c.call(ops.updateProblem, { params: { id: problem.id }, body: { slug: `${problem.slug}-x`, name: 'Renamed problem', type: problem.type } });
    view = (await listed(M.c, A.id, s.id)).problems[0]!;
    expect(view).toMatchObject({ problemSlug: `${problem.slug}-x`, problemName: 'Renamed problem', name: 'Renamed problem', slug: assignment.slug });
    view = (await update(M.c, assignment.id, { problemId: problem.id, slug: assignment.slug, name: 'Task A' })).problems[0]!;
    expect(view).toMatchObject({ problemName: 'Renamed problem', name: 'Task A' });
  });
});

describe('PUT /series-problems/{assignmentId}', () => {
  it('changes what is given, keeps what is absent, clears what is null; answers the series', async () => {
    const { s, problem, version, assignment } = await attached({ name: 'Named', maxPoints: 10, config: { a: 1 }, maxSubmissions: 5 });
    await heard();
    const after = await update(M.c, assignment.id, { problemId: problem.id, slug: 'renamed', maxPoints: null, spec: { b: 2 }, pinnedProblemVersionId: version.id });
    expect(after.id).toBe(s.id);
    const { maxPoints: _cleared, ...kept } = assignment;
    expect(after.problems[0]).toEqual({ ...kept, slug: 'renamed', spec: { b: 2 }, pinnedProblemVersionId: version.id, pinnedVersion: 1 });
    // pin null follows the newest again
    const unpinned = await update(M.c, assignment.id, { problemId: problem.id, slug: 'renamed', pinnedProblemVersionId: null, name: null });
    expect(unpinned.problems[0]).not.toHaveProperty('pinnedProblemVersionId');
    expect(unpinned.problems[0]).not.toHaveProperty('pinnedVersion');
    expect(unpinned.problems[0]!.name).toBe(problem.name);
    expect(await listed(M.c, A.id, s.id)).toEqual(unpinned);
    const got = await heard();
    expect(only(got.M, 'managerSeriesChanged')).toEqual([
      { activityId: A.id, seriesId: s.id },
      { activityId: A.id, seriesId: s.id },
    ]);
    for (const k of ['P', 'MB', 'U'] as const) expect(got[k]).toEqual([]);
  });

  it('checks a new slug against the activity; its own slug in another case is fine', async () => {
    const { assignment: first } = await attached({ slug: 'alpha' });
    const { assignment: second, problem } = await attached({ slug: 'beta' });
    await w.refused(update(M.c, second.id, { problemId: problem.id, slug: 'ALPHA' }), 409, 'assignment.slug.taken');
    expect(last(await update(M.c, second.id, { problemId: problem.id, slug: 'Beta' })).slug).toBe('Beta');
    expect(first.slug).toBe('alpha');
  });

  it('refuses another problem, a version of another problem, an archived activity', async () => {
    const { assignment, problem } = await attached();
    const { problem: other, version: foreign } = await w.problem(M.c);
    const pb = await w.refused(update(M.c, assignment.id, { problemId: other.id, slug: assignment.slug }), 422, 'validation_failed');
    expect(pb.errors).toHaveProperty('problemId');
    await w.refused(update(M.c, assignment.id, { problemId: problem.id, slug: assignment.slug, pinnedProblemVersionId: foreign.id }), 422, 'version.foreign');

    const gone = await w.activity();
    await j.grant(M.u.id, 'manager', gone.id);
    const s = await newSeries(M.c, gone.id);
    const inGone = last(await attach(M.c, s.id, { problemId: problem.id, slug: w.uniq('g') }));
    await w.archived(gone.id, true);
    await w.refused(update(M.c, inGone.id, { problemId: problem.id, slug: inGone.slug, name: 'x' }), 409, 'activity.archived');
  });

  it('needs problem:attach in the activity and the problem readable', async () => {
    const { assignment, problem } = await attached();
    const body = { problemId: problem.id, slug: assignment.slug, name: 'x' };
    await w.refused(update(P.c, assignment.id, body), 403, 'forbidden');
    await w.refused(update(U.c, assignment.id, body), 404, 'not_found');
    await w.refused(update(MB.c, assignment.id, body), 404, 'not_found');
    await w.refused(update(M2.c, assignment.id, body), 404, 'not_found'); // cannot read M's private problem
    await w.refused(update(M.c, UNKNOWN_UUID, body), 404, 'not_found');
    await w.refusedRaw(M.c, 'PUT', '/series-problems/not-a-uuid', body, 404, 'not_found');
    for (const bad of [{ slug: assignment.slug }, { problemId: problem.id }, { ...body, maxPoints: -3 }, { ...body, spec: [] }, { ...body, maxAttachments: 101 }]) {
      await w.refusedRaw(M.c, 'PUT', `/series-problems/${assignment.id}`, bad, 422, 'validation_failed');
    }
  });
});

describe('DELETE /series-problems/{assignmentId}', () => {
  it('detaches a problem nobody submitted to and answers the series as it is now', async () => {
    const { s, problem, assignment } = await attached();
    const kept = last(await attach(M.c, s.id, { problemId: problem.id, slug: w.uniq('kept') }));
    await heard();
    const res = await M.c.send(ops.deleteAssignment, { params: { assignmentId: assignment.id } });
    expect(res.status).toBe(200);
    const after = (await res.json()) as Series;
    expect(after.problems).toEqual([kept]);
    expect(await listed(M.c, A.id, s.id)).toEqual(after);
    const got = await heard();
    expect(only(got.M, 'managerSeriesChanged')).toEqual([{ activityId: A.id, seriesId: s.id }]);
    for (const k of ['P', 'MB', 'U'] as const) expect(got[k]).toEqual([]);
    await w.refused(detach(M.c, assignment.id), 404, 'not_found');
    // its slug is free again
    expect(last(await attach(M.c, s.id, { problemId: problem.id, slug: assignment.slug })).slug).toBe(assignment.slug);
  });

  it('refuses once submitted to, an archived activity, and those who may not', async () => {
    const { s, version, assignment } = await attached();
    await w.refused(detach(P.c, assignment.id), 403, 'forbidden');
    await w.refused(detach(U.c, assignment.id), 404, 'not_found');
    await w.refused(detach(MB.c, assignment.id), 404, 'not_found');
    await w.refused(detach(M2.c, assignment.id), 404, 'not_found');
    await w.refusedRaw(M.c, 'DELETE', '/series-problems/nope', undefined, 404, 'not_found');
    await w.submit({ activityId: A.id, seriesId: s.id, assignmentId: assignment.id, versionId: version.id, userId: P.u.id });
    await w.refused(detach(M.c, assignment.id), 409, 'assignment.hasSubmissions');

    const gone = await w.activity();
    await j.grant(M.u.id, 'manager', gone.id);
    const s2 = await newSeries(M.c, gone.id);
    const { problem } = await w.problem(M.c);
    const inGone = last(await attach(M.c, s2.id, { problemId: problem.id }));
    await w.archived(gone.id, true);
    await w.refused(detach(M.c, inGone.id), 409, 'activity.archived');
  });
});

describe('POST /series/{seriesId}/problems/order', () => {
  async function threeProblems(): Promise<{ s: Series; ids: string[] }> {
    const s = await newSeries(M.c, A.id);
    let after = s;
    for (let i = 0; i < 3; i++) after = await attach(M.c, s.id, { problemId: (await w.problem(M.c)).problem.id });
    return { s: after, ids: after.problems.map((p) => p.id) };
  }

  it('puts the listed problems first in that order and the rest after in their old order', async () => {
    const { s, ids } = await threeProblems();
    await heard();
    const after = await reorder(M.c, s.id, [ids[2]!]);
    expect(after.problems.map((p) => [p.id, p.order])).toEqual([
      [ids[2], 1],
      [ids[0], 2],
      [ids[1], 3],
    ]);
    expect(await listed(M.c, A.id, s.id)).toEqual(after);
    const got = await heard();
    expect(only(got.M, 'managerSeriesChanged')).toEqual([{ activityId: A.id, seriesId: s.id }]);
    for (const k of ['P', 'MB', 'U'] as const) expect(got[k]).toEqual([]);
  });

  it('refuses problems of another series, repeated ids, non-UUIDs and those who may not', async () => {
    const { s, ids } = await threeProblems();
    const { assignment: elsewhere } = await attached();
    await w.refused(reorder(M.c, s.id, [ids[0]!, elsewhere.id]), 422, 'order.foreign');
    await w.refused(reorder(M.c, s.id, [ids[0]!, ids[0]!]), 422, 'validation_failed');
    await w.refusedRaw(M.c, 'POST', `/series/${s.id}/problems/order`, { orderedIds: [1] }, 422, 'validation_failed');
    await w.refused(reorder(P.c, s.id, ids), 403, 'forbidden');
    await w.refused(reorder(U.c, s.id, ids), 404, 'not_found');
    await w.refused(reorder(MB.c, s.id, ids), 404, 'not_found');
  });
});
