import { ops, type SubmissionDetail } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import type { Page } from 'playwright-core';
import { codeForm } from '../../packages/server/test/support/forms.js';
import { legacyPackage, zipOf } from '../../packages/server/test/zips.js';
import { packagedProblem } from '../../packages/server/test/support/packaged-problem.js';
import type { RunningJudge } from './harness.js';

/** What the standings and account tests share: a contest with one problem and its participants. */

export const CUP = 'cup';
export const ACCEPTED = 'a, b = map(int, input().split())\nprint(a + b)\n';
export const WRONG = 'print(0)\n';

export interface Person {
  id: string;
  username: string;
  password: string;
  /** Signed in over the API (a session of its own, apart from any browser's). */
  api: JudgeClient;
}

export interface Cup {
  activityId: string;
  seriesId: string;
  participantRole: string;
  people: Record<'ann' | 'bob' | 'cy', Person>;
}

async function person(judge: RunningJudge, admin: JudgeClient, username: string, firstName: string): Promise<Person> {
  const issued = await admin.call(ops.createUser, { body: { username, firstName, lastName: 'Tester' } });
  const api = new JudgeClient({ baseUrl: judge.url });
  await api.login(issued.username, issued.password);
  await api.call(ops.enrol, { params: { idOrSlug: CUP }, body: {} });
  return { id: issued.userId, username: issued.username, password: issued.password, api };
}

/** An open icpc contest `cup` with the problem `sum` in its one series, and three enrolled participants. */
export async function setUpCup(judge: RunningJudge, admin: JudgeClient): Promise<Cup> {
  const act = await admin.call(ops.createActivity, { body: { slug: CUP, name: 'Spring Cup', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', joinPolicy: 'open', unlisted: false } });
  const series = await admin.call(ops.createSeries, { params: { idOrSlug: CUP }, body: { slug: 'main', name: 'Main' } });
  const { problem } = await packagedProblem(admin, { slug: 'sum', name: 'Sum of two', type: 'standard-io@1' }, await zipOf(legacyPackage('Sum of two')), 'sum.zip');
  await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug: 'sum' } });
  const roles = await admin.call(ops.listRoles, {});
  const participantRole = roles.find((r) => r.builtInKey === 'participant')!.id;
  const [ann, bob, cy] = await Promise.all([person(judge, admin, 'ann', 'Ann'), person(judge, admin, 'bob', 'Bob'), person(judge, admin, 'cy', 'Cy')]);
  return { activityId: act.id, seriesId: series.id, participantRole, people: { ann: ann!, bob: bob!, cy: cy! } };
}

/**
 * `count` more participants, made and enrolled by the administrator (an activity grant of the
 * participant role is the membership), a few requests at a time.
 */
export async function moreParticipants(admin: JudgeClient, cup: Cup, count: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const u = await admin.call(ops.createUser, { body: { username: `p${String(i).padStart(4, '0')}`, firstName: 'Pupil', lastName: String(i) } });
      await admin.call(ops.createGrant, { body: { userId: u.userId, roleId: cup.participantRole, activityId: cup.activityId } });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

export const LEAGUE = 'league';

/**
 * A points activity `league` with two series of one problem each (`sum` in Week 1, `sum-2` in
 * Week 2), with `who` enrolled by the administrator.
 */
export async function setUpLeague(admin: JudgeClient, cup: Cup, who: Person[]): Promise<{ week2: string }> {
  const act = await admin.call(ops.createActivity, { body: { slug: LEAGUE, name: 'School League', type: 'course@1', rankingType: 'points', timeZone: 'UTC', joinPolicy: 'open', unlisted: false } });
  const zip = await zipOf(legacyPackage('Sum again'));
  const ids: string[] = [];
  for (const [i, slug] of ['sum', 'sum-2'].entries()) {
    const series = await admin.call(ops.createSeries, { params: { idOrSlug: LEAGUE }, body: { slug: `week-${i + 1}`, name: `Week ${i + 1}` } });
    const { problem } = await packagedProblem(admin, { slug: `league-${slug}`, name: `League ${slug}`, type: 'standard-io@1' }, zip, `${slug}.zip`);
    await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug, maxPoints: 10 } });
    ids.push(series.id);
  }
  for (const p of who) await admin.call(ops.createGrant, { body: { userId: p.id, roleId: cup.participantRole, activityId: act.id } });
  return { week2: ids[1]! };
}

/** Submits to `sum` over the API and waits until the submission is judged. */
export async function submitAndJudge(p: Person, code: string, fileName = 'sum.py', where = { activity: CUP, problem: 'sum' }): Promise<SubmissionDetail> {
  const s = await p.api.call(ops.submit, { params: { idOrSlug: where.activity, problemSlug: where.problem }, form: codeForm(code, fileName) });
  const end = Date.now() + 90_000;
  while (Date.now() < end) {
    const d = await p.api.call(ops.getOwnSubmission, { params: { idOrSlug: where.activity, id: s.id } });
    if (d.state === 'completed' || d.state === 'failed') return d;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`submission ${s.id} was not judged within 90 s`);
}

/** Signs in through the sign-in page, as a person does, starting from `path`. */
export async function signInThroughPage(page: Page, base: string, p: { username: string; password: string }, path = '/'): Promise<void> {
  await page.goto(`${base}${path}`);
  await page.waitForURL(/\/sign-in/);
  await page.getByLabel(/User name or email/).fill(p.username);
  await page.getByLabel(/^Password/).fill(p.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/sign-in'));
}

/** Marks the page's window, so that a test can tell later that it was never reloaded. */
export const markWindow = (page: Page) => page.evaluate(`window.__notReloaded = true`);
export const stillSameWindow = (page: Page) => page.evaluate<boolean>(`window.__notReloaded === true`);
