import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity, type Question } from '@judge/contract';
import type { EventStream, JudgeClient } from '@judge/sdk';
import { refusedWith, sendJson } from './expect.js';
import { TestJudge, type Party } from './harness.js';
import { barrier, open, types } from './support/socket.js';
import { questionReads, questions } from '../src/db/schema.js';

/**
 * Questions and announcements over real HTTP and the socket (decisions §9, §10; interface "Manager
 * questions"): who may ask, read, answer, publish and delete, what each write tells whom, the
 * module switch, and that refusals change nothing.
 */

let j: TestJudge;
let admin: JudgeClient;
let act: Activity;
let seriesId: string;
let mgr: Party;
let alice: Party;
let bob: Party;
let outsider: Party;

const snapshot = () =>
  j.app.deps.tx.read(async (q) =>
    JSON.stringify([await q.select().from(questions).orderBy(questions.id), await q.select().from(questionReads).orderBy(questionReads.questionId, questionReads.userId)]),
  );
async function refused(call: Promise<unknown>, status: number, code: string) {
  // the call is under way already: its refusal, if it comes while the snapshot is read, is handled (refusedWith looks at it)
  call.catch(() => undefined);
  const before = await snapshot();
  await refusedWith(call, status, code);
  expect(await snapshot()).toBe(before);
}

async function party(name: string, role?: 'participant' | 'manager'): Promise<Party> {
  const u = await j.user(name);
  if (role) await j.grant(u.id, role, act.id);
  return { u, c: await j.signIn(u, 'cookie') };
}

const ask = (p: Party, topic: string, extra: Record<string, string> = {}) =>
  p.c.call(ops.askQuestion, { params: { idOrSlug: act.slug }, body: { topic, body: `${topic}?`, ...extra } });
const own = (p: Party, query: Record<string, string> = {}) => p.c.call(ops.listOwnQuestions, { params: { idOrSlug: act.slug }, query });
const managerList = (p: Party | JudgeClient, query: Record<string, string | boolean> = {}) =>
  ('c' in p ? p.c : p).call(ops.listQuestions, { query: { activityId: act.id, ...query } as never });

beforeAll(async () => {
  j = await TestJudge.start();
  admin = await j.admin();
  act = await admin.call(ops.createActivity, { body: { slug: 'qa', name: 'Q and A', type: 'contest@1', rankingType: 'icpc', timeZone: 'Europe/Warsaw' } });
  seriesId = (await admin.call(ops.createSeries, { params: { idOrSlug: act.slug }, body: { slug: 'day1', name: 'Day 1' } })).id;
  mgr = await party('qmgr', 'manager');
  alice = await party('alice', 'participant');
  bob = await party('bob', 'participant');
  outsider = await party('outsider');
});
afterAll(() => j.stop());

describe('asking', () => {
  it('a participant asks about the activity or a series; 201 with Location, the asker named to themself', async () => {
    const res = await sendJson(j.url, 'POST', `/activities/${act.slug}/questions`, (await j.signIn(alice.u)).accessToken, { topic: 'Input', body: 'Is the input sorted?' });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/v1/activities/${act.slug}/questions/${res.body.id}`);
    expect(res.body).toMatchObject({ kind: 'question', topic: 'Input', authorUserId: alice.u.id, isPublished: false, readCount: 0, isRead: false, activityId: act.id });
    const s = await ask(alice, 'Series', { seriesId });
    expect(s).toMatchObject({ seriesId, seriesName: 'Day 1' });
  });

  it('refuses bad input, a foreign series, outsiders and those without question:create, changing nothing', async () => {
    const token = (await j.signIn(alice.u)).accessToken;
    for (const body of [{ topic: '', body: 'x' }, { topic: 'x' }, { topic: 'x', body: 5 }, { topic: 'x'.repeat(201), body: 'x' }]) {
      const before = await snapshot();
      const res = await sendJson(j.url, 'POST', `/activities/${act.slug}/questions`, token, body);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 422, code: 'validation_failed' });
      expect(await snapshot()).toBe(before);
    }
    await refused(ask(alice, 'x', { seriesId: '0190a0a0-0000-7000-8000-000000000000' }), 422, 'validation_failed');
    await refused(ask(alice, 'x', { problemId: '0190a0a0-0000-7000-8000-000000000000' }), 422, 'validation_failed');
    await refused(ask(outsider, 'x'), 404, 'not_found');
    await refused(own(outsider), 404, 'not_found');
  });

  it('a non-member of an activity open to all may see it but not ask or read its questions', async () => {
    const openAct = await admin.call(ops.createActivity, { body: { slug: 'open-qa', name: 'Open', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', joinPolicy: 'open', unlisted: false } });
    await outsider.c.call(ops.getActivity, { params: { idOrSlug: openAct.slug } });
    await refused(outsider.c.call(ops.askQuestion, { params: { idOrSlug: openAct.slug }, body: { topic: 'x', body: 'y' } }), 403, 'forbidden');
    await refused(outsider.c.call(ops.listOwnQuestions, { params: { idOrSlug: openAct.slug } }), 403, 'forbidden');
  });
});

describe('reading, answering and publishing', () => {
  let q: Question;
  let streams: { mgr: EventStream; alice: EventStream; bob: EventStream; outsider: EventStream };

  beforeAll(async () => {
    streams = { mgr: await open(mgr.c), alice: await open(alice.c), bob: await open(bob.c), outsider: await open(outsider.c) };
  });
  afterAll(() => Object.values(streams).forEach((s) => s.close()));

  it('asking tells the staff only (questionChanged)', async () => {
    q = await ask(alice, 'Limits');
    const [m, a, b, o] = await barrier(admin, [streams.mgr, streams.alice, streams.bob, streams.outsider]);
    expect(types(m!)).toEqual(['questionChanged']);
    expect(m![0]!.data).toMatchObject({ activityId: act.id, question: { id: q.id, authorName: 'alice' } });
    expect([a!, b!, o!].map(types)).toEqual([[], [], []]);
  });

  it('participants see their own and nobody else\'s unpublished questions; staff see all', async () => {
    expect((await own(alice)).items.map((x) => x.id)).toContain(q.id);
    expect((await own(bob)).items.map((x) => x.id)).not.toContain(q.id);
    const all = await managerList(mgr);
    expect(all.items.map((x) => x.id)).toContain(q.id);
    await refused(bob.c.call(ops.markQuestionRead, { params: { idOrSlug: act.slug, id: q.id } }), 404, 'not_found');
  });

  it('answering fills the answer and tells the asker only while unpublished', async () => {
    await refused(bob.c.call(ops.answerQuestion, { params: { id: q.id }, body: { body: 'no' } }), 404, 'not_found');
    await refused(mgr.c.call(ops.answerQuestion, { params: { id: q.id }, body: { body: '' } }), 422, 'validation_failed');
    await refused(mgr.c.call(ops.setQuestionPublished, { params: { id: q.id }, body: { published: true } }), 409, 'question.unanswered');
    const a = await mgr.c.call(ops.answerQuestion, { params: { id: q.id }, body: { body: 'Yes, sorted.' } });
    expect(a.answer).toMatchObject({ body: 'Yes, sorted.', authorName: 'qmgr' });
    expect(a.isPublished).toBe(false);
    const [m, al, b] = await barrier(admin, [streams.mgr, streams.alice, streams.bob, streams.outsider]);
    expect(types(m!)).toEqual(['questionChanged']);
    expect(types(al!)).toEqual(['questionAnswered']);
    expect(al![0]!.data).toMatchObject({ activityId: act.id, question: { id: q.id, answer: { body: 'Yes, sorted.' } } });
    expect(types(b!)).toEqual([]);
  });

  it('publishing tells every reader (questionPublished) without naming the asker; withdrawing tells them it went', async () => {
    await refused(alice.c.call(ops.setQuestionPublished, { params: { id: q.id }, body: { published: true } }), 404, 'not_found');
    const p = await mgr.c.call(ops.setQuestionPublished, { params: { id: q.id }, body: { published: true } });
    expect(p.isPublished).toBe(true);
    const [, al, b, o] = await barrier(admin, [streams.mgr, streams.alice, streams.bob, streams.outsider]);
    expect(types(al!)).toEqual(['questionPublished']);
    expect(types(b!)).toEqual(['questionPublished']);
    expect((b![0]!.data as { question: Question }).question.authorName).toBeUndefined();
    expect(types(o!)).toEqual([]);
    const seen = (await own(bob)).items.find((x) => x.id === q.id)!;
    expect(seen.authorUserId).toBeUndefined();
    expect(seen.answer?.body).toBe('Yes, sorted.');

    await mgr.c.call(ops.setQuestionPublished, { params: { id: q.id }, body: { published: false } });
    const [, , b2] = await barrier(admin, [streams.mgr, streams.alice, streams.bob, streams.outsider]);
    expect(b2!.map((f) => f.data)).toEqual([{ activityId: act.id, withdrawnId: q.id }]);
    expect((await own(bob)).items.map((x) => x.id)).not.toContain(q.id);
  });

  it('answering with publish: true publishes at once and tells every reader', async () => {
    const q2 = await ask(bob, 'Output');
    await barrier(admin, [streams.mgr, streams.alice, streams.bob, streams.outsider]);
    await mgr.c.call(ops.answerQuestion, { params: { id: q2.id }, body: { body: 'Read the statement.', publish: true } });
    const [, al, b] = await barrier(admin, [streams.mgr, streams.alice, streams.bob, streams.outsider]);
    expect(types(al!)).toEqual(['questionAnswered', 'questionPublished']);
    expect(types(b!)).toEqual(['questionAnswered', 'questionPublished']);
    expect((b![0]!.data as { question: Question }).question.answer?.body).toBe('Read the statement.');
  });

  it('marking read counts once per reader', async () => {
    await mgr.c.call(ops.setQuestionPublished, { params: { id: q.id }, body: { published: true } });
    for (const p of [bob, bob, alice]) await p.c.call(ops.markQuestionRead, { params: { idOrSlug: act.slug, id: q.id } });
    const mine = (await own(bob)).items.find((x) => x.id === q.id)!;
    expect(mine).toMatchObject({ readCount: 2, isRead: true });
    expect((await managerList(mgr)).items.find((x) => x.id === q.id)).toMatchObject({ readCount: 2, isRead: false });
  });
});

describe('announcements', () => {
  it('a manager announces to every member (announcementPublished), listed with kind announcement', async () => {
    const [m, a, o] = [await open(mgr.c), await open(alice.c), await open(outsider.c)];
    await refused(alice.c.call(ops.createAnnouncement, { params: { idOrSlug: act.slug }, body: { topic: 'x', body: 'y' } }), 403, 'forbidden');
    const ann = await mgr.c.call(ops.createAnnouncement, { params: { idOrSlug: act.slug }, body: { topic: 'Problem C', body: 'The statement of C was fixed.', seriesId } });
    expect(ann).toMatchObject({ kind: 'announcement', isPublished: true, seriesId });
    const [mf, af, of] = await barrier(admin, [m, a, o]);
    expect(types(mf!).sort()).toEqual(['announcementPublished', 'questionChanged']);
    expect(types(af!)).toEqual(['announcementPublished']);
    expect(af![0]!.data).toMatchObject({ activityId: act.id, question: { id: ann.id, body: 'The statement of C was fixed.' } });
    expect(types(of!)).toEqual([]);
    expect((await own(alice, { kind: 'announcement' })).items.map((x) => x.id)).toEqual([ann.id]);
    await refused(mgr.c.call(ops.answerQuestion, { params: { id: ann.id }, body: { body: 'x' } }), 409, 'question.isAnnouncement');
    // deleting it tells the staff and withdraws it from the members
    await refused(alice.c.call(ops.deleteQuestion, { params: { id: ann.id } }), 404, 'not_found');
    await mgr.c.call(ops.deleteQuestion, { params: { id: ann.id } });
    const [mf2, af2] = await barrier(admin, [m, a]);
    expect(mf2!.map((f) => f.data)).toContainEqual({ activityId: act.id, deletedId: ann.id });
    expect(af2!.map((f) => f.data)).toEqual([{ activityId: act.id, withdrawnId: ann.id }]);
    for (const s of [m, a, o]) s.close();
  });
});

describe("the managers' list", () => {
  it('applies every filter before paging', async () => {
    const x = await ask(alice, 'Zebra crossing', { seriesId });
    const all = await managerList(mgr, { search: 'zebra' });
    expect(all.items.map((i) => i.id)).toEqual([x.id]);
    expect(all.total).toBe(1);
    const bySeries = await managerList(mgr, { seriesId, pageSize: '1' } as never);
    expect(bySeries.items).toHaveLength(1);
    expect(bySeries.total).toBe(2);
    const unanswered = await managerList(mgr, { unansweredOnly: 'true', kind: 'question' } as never);
    expect(unanswered.items.every((i) => !i.answer && i.kind === 'question')).toBe(true);
    expect(unanswered.total).toBe(unanswered.items.length);
    const byName = await managerList(mgr, { search: 'bob' });
    expect(byName.items.map((i) => i.topic)).toEqual(['Output']);
    // empty enumerated filters are no filters
    const res = await sendJson(j.url, 'GET', `/questions?activityId=${act.id}&kind=&seriesId=`, (await j.signIn(mgr.u)).accessToken);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe((await managerList(mgr)).total);
  });

  it('refuses participants and bad filters; lists only activities the caller staffs', async () => {
    await refusedWith(managerList(alice), 403, 'forbidden');
    await refusedWith(outsider.c.call(ops.listQuestions, {}), 403, 'forbidden');
    const res = await sendJson(j.url, 'GET', '/questions?kind=poll', (await j.signIn(mgr.u)).accessToken);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 422, code: 'validation_failed' });
    const other = await admin.call(ops.createActivity, { body: { slug: 'other', name: 'Other', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC' } });
    await j.grant(alice.u.id, 'participant', other.id);
    await alice.c.call(ops.askQuestion, { params: { idOrSlug: 'other' }, body: { topic: 'Elsewhere', body: '?' } });
    const mine = await mgr.c.call(ops.listQuestions, {});
    expect(mine.items.every((i) => i.activityId === act.id)).toBe(true);
    expect((await admin.call(ops.listQuestions, {})).items.some((i) => i.activityId === other.id)).toBe(true);
  });
});

describe('the module switch and canned answers', () => {
  it('modules.questions off refuses the whole feature with questions.disabled', async () => {
    const q = await ask(alice, 'Before the switch');
    await admin.call(ops.updateActivity, { params: { idOrSlug: act.slug }, body: { slug: act.slug, modules: { questions: false } } });
    await refused(ask(alice, 'x'), 403, 'questions.disabled');
    await refused(own(alice), 403, 'questions.disabled');
    await refused(mgr.c.call(ops.answerQuestion, { params: { id: q.id }, body: { body: 'x' } }), 403, 'questions.disabled');
    await refused(mgr.c.call(ops.createAnnouncement, { params: { idOrSlug: act.slug }, body: { topic: 'x', body: 'y' } }), 403, 'questions.disabled');
    await admin.call(ops.updateActivity, { params: { idOrSlug: act.slug }, body: { slug: act.slug, modules: { questions: true } } });
    expect((await own(alice)).total).toBeGreaterThan(0);
  });

  it('canned answers are instance data an administrator edits', async () => {
    expect((await mgr.c.call(ops.getCannedAnswers, {})).answers).toEqual(['Read the statement.', 'No comment.', 'Yes.', 'No.']);
    await refusedWith(mgr.c.call(ops.setCannedAnswers, { body: { answers: ['Nope'] } }), 403, 'forbidden');
    const res = await sendJson(j.url, 'PUT', '/instance/canned-answers', admin.accessToken, { answers: [''] });
    expect(res.status).toBe(422);
    await admin.call(ops.setCannedAnswers, { body: { answers: ['Yes.', 'No.', 'See the clarification.'] } });
    expect((await alice.c.call(ops.getCannedAnswers, {})).answers).toEqual(['Yes.', 'No.', 'See the clarification.']);
  });
});
