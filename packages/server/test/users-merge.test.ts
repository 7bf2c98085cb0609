import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ops, type Activity, type MergeRecord } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { files, grants, questionReads, questions, submissions, userMerges, users } from '../src/db/schema.js';
import { ADMIN_PASSWORD, ManualClock } from './harness.js';
import { T0, at, type Party } from './series-fixtures.js';
import { tableSnapshot } from './support/db-snapshot.js';
import { barrier, open } from './support/socket.js';
import { expectProblem, req } from './support/identity.js';
import { Fixture, rowOf, type Task } from './support/ranking.js';

/**
 * Merging accounts (decisions §4 and the Users section): a guest account of a contest merged into
 * the pupil's own. Every record that moves is checked row by row, the ranking follows both ways,
 * the source is blocked and signed out, an undo puts back exactly what moved, and after
 * MERGE_UNDO_DAYS the source is anonymised and the merge is final.
 */

const clock = new ManualClock(new Date(T0));
let f: Fixture;
let admin: JudgeClient;
const TABLES = [users, submissions, questions, questionReads, grants, files, userMerges];

beforeAll(async () => {
  f = await Fixture.start(clock);
  admin = await f.j.admin();
  await admin.call(ops.createRole, { body: { name: 'Merger', permissions: ['user:merge', 'user:read:all'] } });
});
afterAll(() => f?.j.stop());

const rows = <T>(read: (q: Parameters<Parameters<typeof f.j.app.deps.tx.read>[0]>[0]) => Promise<T>) => f.j.app.deps.tx.read(read);

/** A guest who took part in a contest (two submissions, one accepted; a question; a file), and the pupil's own account elsewhere. */
async function contest(): Promise<{ a: Activity; t: Task; guest: Party; own: Party; fileId: string; questionId: string }> {
  const guest = await f.person('guest');
  const own = await f.person('pupil', { firstName: 'Pia', lastName: 'Lund' });
  const rival = await f.person('rival');
  const a = await f.activity([guest, rival], { name: f.w.uniq('Regional') });
  const s = await f.series(a, { startDate: at(0) });
  const t = await f.task(s);
  await f.submit(a, t, guest, { minutes: 5, verdict: 'WA' });
  await f.submit(a, t, guest, { minutes: 10, verdict: 'AC' });
  await f.submit(a, t, rival, { minutes: 20, verdict: 'AC' });
  const q = await guest.c.call(ops.askQuestion, { params: { idOrSlug: a.slug }, body: { topic: 'Input', body: 'May n be 0?' } });
  const announcement = await f.M.c.call(ops.createAnnouncement, { params: { idOrSlug: a.slug }, body: { topic: 'Clarification', body: 'n ≥ 1' } });
  await guest.c.call(ops.markQuestionRead, { params: { idOrSlug: a.slug, id: announcement.id } });
  const file = await guest.c.upload('notes.txt', 'my notes');
  return { a, t, guest, own, fileId: file.id, questionId: q.id };
}

describe('preview', () => {
  it('counts what would move and lists no blockers for a plain case', async () => {
    const { a, guest, own } = await contest();
    const p = await admin.call(ops.previewMerge, { params: { id: guest.u.id }, body: { targetUserId: own.u.id } });
    expect(p).toEqual({
      sourceUserId: guest.u.id,
      sourceLogin: guest.u.username,
      sourceName: guest.u.username,
      sourceIsTemporary: false,
      targetUserId: own.u.id,
      targetLogin: own.u.username,
      targetName: 'Pia Lund',
      submissions: 2,
      questions: 1,
      activities: 1,
      activityNames: [a.name],
      blockers: [],
    });
  });

  it('lists every blocker, and the merge refuses with them and changes nothing', async () => {
    const { a, guest, own } = await contest();
    // both in the contest, under different roles
    await f.j.grant(own.u.id, 'manager', a.id);
    const p = await admin.call(ops.previewMerge, { params: { id: guest.u.id }, body: { targetUserId: own.u.id } });
    expect(p.blockers).toEqual([`Both are members of ${a.name}, as Participant and as Manager: give them the same role there first.`]);
    const before = await tableSnapshot(f.j, TABLES);
    expectProblem(await req(f.j, 'POST', `/users/${guest.u.id}/merge`, { token: admin.accessToken!, body: { targetUserId: own.u.id } }), 409, 'merge.blocked');
    expect(await tableSnapshot(f.j, TABLES)).toEqual(before);

    expect((await admin.call(ops.previewMerge, { params: { id: guest.u.id }, body: { targetUserId: guest.u.id } })).blockers).toEqual(['An account cannot be merged into itself.']);
    const adminId = (await admin.call(ops.getAccount)).userId;
    expect((await admin.call(ops.previewMerge, { params: { id: adminId }, body: { targetUserId: own.u.id } })).blockers).toContain('You cannot merge your own account away: another administrator can.');
    // one who may merge but holds less than the administrator cannot merge the administrator
    const merger = await f.person('merger');
    await f.j.grant(merger.u.id, 'Merger');
    const dominated = await merger.c.call(ops.previewMerge, { params: { id: adminId }, body: { targetUserId: own.u.id } });
    expect(dominated.blockers.some((b) => b.startsWith('admin holds '))).toBe(true);
  });

  it('asks user:merge, and names a missing account or target', async () => {
    const { guest, own } = await contest();
    for (const [method, path, body] of [
      ['POST', `/users/${guest.u.id}/merge-preview`, { targetUserId: own.u.id }],
      ['POST', `/users/${guest.u.id}/merge`, { targetUserId: own.u.id }],
      ['GET', `/users/${guest.u.id}/merges`, undefined],
      ['POST', `/users/merges/${crypto.randomUUID()}/undo`, undefined],
    ] as const) {
      expectProblem(await req(f.j, method, path, { token: own.c.accessToken!, ...(body ? { body } : {}) }), 403, 'forbidden');
      expect((await req(f.j, method, path, body ? { body } : {})).status).toBe(401);
    }
    expectProblem(await req(f.j, 'POST', `/users/${crypto.randomUUID()}/merge-preview`, { token: admin.accessToken!, body: { targetUserId: own.u.id } }), 404, 'not_found');
    expectProblem(await req(f.j, 'POST', `/users/${guest.u.id}/merge`, { token: admin.accessToken!, body: { targetUserId: crypto.randomUUID() } }), 404, 'not_found');
    expectProblem(await req(f.j, 'POST', `/users/merges/${crypto.randomUUID()}/undo`, { token: admin.accessToken! }), 404, 'not_found');
    expectProblem(await req(f.j, 'POST', `/users/${guest.u.id}/merge`, { token: admin.accessToken!, body: {} }), 422, 'validation_failed');
  });
});

describe('merge and undo', () => {
  let world: Awaited<ReturnType<typeof contest>>;
  let merged: MergeRecord;
  let guestSubmissions: string[];

  beforeAll(async () => {
    world = await contest();
    guestSubmissions = (await rows((q) => q.select({ id: submissions.id }).from(submissions).where(eq(submissions.userId, world.guest.u.id)))).map((r) => r.id);
  });

  it('moves every record to the target, blocks and signs out the source, and the ranking follows', async () => {
    const { a, guest, own, fileId, questionId } = world;
    const before = await f.ranking(f.M, a);
    expect(rowOf(before, guest)).toMatchObject({ solved: 1 });
    expect(rowOf(before, own)).toBeUndefined();

    merged = await admin.call(ops.mergeUsers, { params: { id: guest.u.id }, body: { targetUserId: own.u.id } });
    expect(merged).toMatchObject({ sourceUserId: guest.u.id, targetUserId: own.u.id, canUndo: true, sourceLogin: guest.u.username, targetLogin: own.u.username });
    expect(new Date(merged.anonymiseAfter).getTime() - new Date(merged.mergedAt).getTime()).toBe(30 * 86_400_000);

    for (const id of guestSubmissions) expect((await rows((q) => q.select().from(submissions).where(eq(submissions.id, id))))[0]!.userId).toBe(own.u.id);
    expect((await rows((q) => q.select().from(questions).where(eq(questions.id, questionId))))[0]!.authorUserId).toBe(own.u.id);
    expect((await rows((q) => q.select().from(files).where(eq(files.id, fileId))))[0]!.uploadedBy).toBe(own.u.id);
    expect(await rows((q) => q.select().from(questionReads).where(eq(questionReads.userId, guest.u.id)))).toEqual([]);
    expect(await rows((q) => q.select().from(questionReads).where(eq(questionReads.userId, own.u.id)))).toHaveLength(1);
    const membership = await rows((q) => q.select().from(grants).where(eq(grants.activityId, a.id)));
    expect(membership.some((g) => g.userId === own.u.id)).toBe(true);
    expect(membership.some((g) => g.userId === guest.u.id)).toBe(false);

    const source = (await rows((q) => q.select().from(users).where(eq(users.id, guest.u.id))))[0]!;
    expect(source.blockedAt).toBeTruthy();
    expect(source.blockedReason).toBe(`Merged into ${own.u.username}`);
    expect((await req(f.j, 'GET', '/account', { token: guest.c.accessToken! })).status).toBe(401);

    const after = await f.ranking(f.M, a);
    expect(rowOf(after, guest)).toBeUndefined();
    expect(rowOf(after, own)).toMatchObject({ solved: 1, userName: 'Pia Lund' });
    // the target now sees the contest and its own questions
    expect((await own.c.call(ops.listOwnQuestions, { params: { idOrSlug: a.slug } })).items.some((q) => q.id === questionId)).toBe(true);
  });

  it('a source merged away cannot be merged again, nor merged into', async () => {
    const other = await f.person('other');
    const p = await admin.call(ops.previewMerge, { params: { id: world.guest.u.id }, body: { targetUserId: other.u.id } });
    expect(p.blockers).toEqual([`${world.guest.u.username} was merged into another account already: undo that merge first.`]);
    const into = await admin.call(ops.previewMerge, { params: { id: other.u.id }, body: { targetUserId: world.guest.u.id } });
    expect(into.blockers).toEqual([`${world.guest.u.username} was merged into another account: merge into that one instead.`]);
  });

  it('tells holders of user:read:all of both accounts, at the merge and at its undo', async () => {
    const { guest, own } = await contest();
    const watcher = f.j.anonymous();
    await watcher.loginWithCookie('admin', ADMIN_PASSWORD);
    const stream = await open(watcher);
    try {
      await barrier(admin, [stream]);
      const m = await admin.call(ops.mergeUsers, { params: { id: guest.u.id }, body: { targetUserId: own.u.id } });
      const changed = (frames: { type: string; data: unknown }[]) =>
        frames.filter((x) => x.type === 'userChanged').map((x) => (x.data as { user: { id: string } }).user.id);
      expect(new Set(changed((await barrier(admin, [stream]))[0]!))).toEqual(new Set([guest.u.id, own.u.id]));
      await admin.call(ops.undoMerge, { params: { mergeId: m.id } });
      expect(new Set(changed((await barrier(admin, [stream]))[0]!))).toEqual(new Set([guest.u.id, own.u.id]));
    } finally {
      stream.close();
    }
  });

  it('lists the merge on both accounts', async () => {
    for (const id of [world.guest.u.id, world.own.u.id]) expect(await admin.call(ops.listUserMerges, { params: { id } })).toEqual([merged]);
  });

  it('undo moves back exactly what moved, unblocks the source, and the ranking follows back', async () => {
    const { a, guest, own, fileId, questionId } = world;
    // the target's own later submission stays the target's
    const later = await f.submit(a, world.t, own, { minutes: 30, verdict: 'WA' });
    const undone = await admin.call(ops.undoMerge, { params: { mergeId: merged.id } });
    expect(undone).toMatchObject({ id: merged.id, canUndo: false, undoneAt: expect.any(String) });
    for (const id of guestSubmissions) expect((await rows((q) => q.select().from(submissions).where(eq(submissions.id, id))))[0]!.userId).toBe(guest.u.id);
    expect((await rows((q) => q.select().from(submissions).where(eq(submissions.id, later))))[0]!.userId).toBe(own.u.id);
    expect((await rows((q) => q.select().from(questions).where(eq(questions.id, questionId))))[0]!.authorUserId).toBe(guest.u.id);
    expect((await rows((q) => q.select().from(files).where(eq(files.id, fileId))))[0]!.uploadedBy).toBe(guest.u.id);
    expect(await rows((q) => q.select().from(questionReads).where(eq(questionReads.userId, guest.u.id)))).toHaveLength(1);
    const source = (await rows((q) => q.select().from(users).where(eq(users.id, guest.u.id))))[0]!;
    expect(source.blockedAt).toBeNull();
    expect((await f.j.anonymous().login(guest.u.username, guest.u.password)).accessToken).toEqual(expect.any(String));

    const ranking = await f.ranking(f.M, a);
    expect(rowOf(ranking, guest)).toMatchObject({ solved: 1 });
    // the membership went back too: the target is no participant there, so its own submission is in no row
    expect(rowOf(ranking, own)).toBeUndefined();

    expectProblem(await req(f.j, 'POST', `/users/merges/${merged.id}/undo`, { token: admin.accessToken! }), 409, 'merge.undo.unavailable');
  });

  it('keeps a block the source had before the merge when the merge is undone', async () => {
    const { guest, own } = await contest();
    await admin.call(ops.setUserBlocked, { params: { id: guest.u.id }, body: { blocked: true, reason: 'shared the password' } });
    const m = await admin.call(ops.mergeUsers, { params: { id: guest.u.id }, body: { targetUserId: own.u.id } });
    await admin.call(ops.undoMerge, { params: { mergeId: m.id } });
    expect((await admin.call(ops.getManagedUser, { params: { id: guest.u.id } })).blockedReason).toBe('shared the password');
  });
});

describe('when a merge becomes final', () => {
  it('cannot be undone once the target was merged on', async () => {
    const { guest, own } = await contest();
    const third = await f.person('third');
    const first = await admin.call(ops.mergeUsers, { params: { id: guest.u.id }, body: { targetUserId: own.u.id } });
    await admin.call(ops.mergeUsers, { params: { id: own.u.id }, body: { targetUserId: third.u.id } });
    expect((await admin.call(ops.listUserMerges, { params: { id: guest.u.id } }))[0]!.canUndo).toBe(false);
    expectProblem(await req(f.j, 'POST', `/users/merges/${first.id}/undo`, { token: admin.accessToken! }), 409, 'merge.undo.unavailable');
  });

  // last: the clock moves past every token issued before
  it('anonymises the source after 30 days, and the merge can no longer be undone', async () => {
    const { a, guest, own } = await contest();
    const m = await admin.call(ops.mergeUsers, { params: { id: guest.u.id }, body: { targetUserId: own.u.id } });
    clock.advance(29 * 86_400);
    expect((await f.j.app.retention.tick(clock.now())).mergedSources).toBe(0);
    clock.advance(2 * 86_400);
    expect((await f.j.app.retention.tick(clock.now())).mergedSources).toBeGreaterThanOrEqual(1);
    const source = (await rows((q) => q.select().from(users).where(eq(users.id, guest.u.id))))[0]!;
    expect(source).toMatchObject({ username: expect.stringMatching(/^merged-[0-9a-f]{12}$/), email: null, firstName: null, lastName: null, passwordHash: null });
    const fresh = await f.j.admin();
    const [record] = await fresh.call(ops.listUserMerges, { params: { id: own.u.id } });
    expect(record).toMatchObject({ id: m.id, canUndo: false, sourceAnonymisedAt: expect.any(String) });
    expectProblem(await req(f.j, 'POST', `/users/merges/${m.id}/undo`, { token: fresh.accessToken! }), 409, 'merge.undo.unavailable');
    // the results stay with the target
    expect(rowOf(await f.ranking({ ...f.M, c: fresh }, a), own)).toMatchObject({ solved: 1 });
  });
});
